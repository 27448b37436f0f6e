// konvoy/olay.mjs — belirlenimli durum olayi kumesi ve uc duzenin surec ici modeli.
// Tur soyut bir adimdir; sure model parametresidir, olculmus bir sure degildir.
export const ADIM = { kabul: 1, aktarma: 2, dagitim: 3, teslim: 4 };
export const OLAY = [            // [takip no, hat, durum, sure]
  ["TR-4821", "H1", "kabul", 1], ["TR-9007", "H1", "kabul", 3],
  ["TR-4821", "H1", "aktarma", 4], ["TR-5533", "H2", "kabul", 1],
  ["TR-4821", "H1", "dagitim", 1], ["TR-9007", "H1", "aktarma", 1],
  ["TR-2214", "H2", "kabul", 2], ["TR-4821", "H1", "teslim", 1],
  ["TR-5533", "H2", "aktarma", 3], ["TR-9007", "H1", "dagitim", 1],
  ["TR-7788", "H3", "kabul", 1], ["TR-5533", "H2", "dagitim", 1],
  ["TR-2214", "H2", "aktarma", 4], ["TR-9007", "H1", "teslim", 1],
  ["TR-5533", "H2", "teslim", 1], ["TR-7788", "H3", "aktarma", 2],
  ["TR-2214", "H2", "dagitim", 1], ["TR-7788", "H3", "dagitim", 1],
  ["TR-2214", "H2", "teslim", 1], ["TR-7788", "H3", "teslim", 1],
];

// Olaylar tuketicilere dagitilir; bir tuketici bosaldiginda siradaki isi alir.
// serit: konvoy anahtarina gore serit adi, null ise sira kisiti yoktur.
function kosum(isler, tuketici, serit) {
  const bos = new Array(tuketici).fill(0);   // her tuketicinin bosalacagi tur
  const seritBos = new Map();                // her seridin bosalacagi tur
  return isler.map((o) => {
    const t = bos.indexOf(Math.min(...bos));
    const s = serit ? serit(o) : null;
    const basla = Math.max(bos[t], s === null ? 0 : (seritBos.get(s) ?? 0));
    const bitis = basla + o.sure;
    bos[t] = bitis;
    if (s !== null) seritBos.set(s, bitis);
    return { ...o, tuketici: t, bitis, serit: s };
  });
}

// Bitis sirasina gore uygulanan olaylar: son yazan kazanir ya da surum damgasi.
function uygula(bitmis, damga) {
  const durum = new Map(), s = { geriyeYazma: 0, atlanan: 0 };
  for (const o of [...bitmis].sort((a, b) => a.bitis - b.bitis || a.sira - b.sira)) {
    const simdi = durum.get(o.takipNo) ?? 0;
    if (ADIM[o.durum] < simdi) {
      s.geriyeYazma += 1;
      if (damga) { s.atlanan += 1; continue; }   // damga geriye yazmayi reddeder
    }
    durum.set(o.takipNo, ADIM[o.durum]);
  }
  const yanlis = [...durum.entries()].filter(([, a]) => a !== ADIM.teslim).map(([n]) => n);
  return { ...s, yanlisSonDurum: yanlis.length, yanlis, tur: Math.max(...bitmis.map((o) => o.bitis)) };
}

export function duzen(ad, tuketici) {
  const isler = OLAY.map(([takipNo, hat, durum, sure], sira) => ({ takipNo, hat, durum, sure, sira }));
  const SERIT = { serbest: null, konvoy: (o) => o.takipNo, "konvoy-hat": (o) => o.hat,
    "surum-damgasi": null };
  const bitmis = kosum(isler, tuketici, SERIT[ad]);
  const r = uygula(bitmis, ad === "surum-damgasi");
  const yuk = new Map();
  for (const o of bitmis) if (o.serit !== null) yuk.set(o.serit, (yuk.get(o.serit) ?? 0) + o.sure);
  return { ...r, serit: yuk.size, enYuklu: yuk.size ? Math.max(...yuk.values()) : 0,
    isYuku: OLAY.reduce((t, o) => t + o[3], 0) };
}
