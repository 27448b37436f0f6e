package report

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// checkJSONText returns an error naming the first string of doc, a JSON
// report's document, that is not UTF-8 text, or nil when every string is.
// A key keeps its bytes as the trace gave them, UTF-8 or not, but a JSON
// string holds UTF-8 text alone: encoding/json would write each other byte
// as U+FFFD, so that keys "\xff" and "\xfe" would read as one, and a reader
// could not tell which key is meant. The JSON reports refuse such a key
// rather than name it wrongly; the text report names it quoted, and the
// CSV report as it is.
//
// It walks doc's exported fields, named by their JSON names, its slices,
// maps (keys and values) and pointers: its cost is one pass over every
// byte of every string.
func checkJSONText(doc any) error {
	return jsonText(reflect.ValueOf(doc), "")
}

// jsonText is checkJSONText for v, found at path.
func jsonText(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); !utf8.ValidString(s) {
			return fmt.Errorf("%q (%s) is not UTF-8 text, the only text a JSON string holds: written as JSON, each byte that is not UTF-8 "+
				"would read as U+FFFD, and two such keys alike; the text report names it quoted", s, path)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return jsonText(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := jsonText(v.Index(i), path); err != nil {
				return err
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if err := jsonText(it.Key(), path); err != nil {
				return err
			}
			if err := jsonText(it.Value(), path); err != nil {
				return err
			}
		}
	case reflect.Struct:
		return structText(v, path)
	}
	return nil
}

// structText is jsonText for the exported fields of struct v, each named
// by its JSON name after path.
func structText(v reflect.Value, path string) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if path != "" {
			name = path + "." + name
		}
		if err := jsonText(v.Field(i), name); err != nil {
			return err
		}
	}
	return nil
}
