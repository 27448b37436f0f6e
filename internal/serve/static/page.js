// konvoy serve's page: a control that changes shows its view at once, and
// keeps the keyboard's focus on that control once the page has loaded.
"use strict";
(function () {
  var form = document.getElementById("controls");
  if (!form) {
    return;
  }
  var focused = sessionStorage.getItem("konvoy-focus");
  sessionStorage.removeItem("konvoy-focus");
  if (focused && document.getElementById(focused)) {
    document.getElementById(focused).focus();
  }
  form.addEventListener("change", function (event) {
    if (event.target.id && form.checkValidity()) {
      sessionStorage.setItem("konvoy-focus", event.target.id);
      form.requestSubmit();
    }
  });
})();
