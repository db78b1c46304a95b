"""Fill the es and ru catalogues from scratch/tr_*.py (T = {msgid: (es, ru)}) and keep
scratch/translations.json up to date (the lead re-applies it after .po merge conflicts)."""
import glob, json, sys
from babel.messages.pofile import read_po, write_po
T = {}
for f in sorted(glob.glob("scratch/tr_*.py")):
    ns = {}
    exec(open(f, encoding="utf-8").read(), ns)
    T.update(ns["T"])
try:
    out = json.load(open("scratch/translations.json", encoding="utf-8"))
except FileNotFoundError:
    out = {"es": {}, "ru": {}}
missing_all = []
for i, lang in enumerate(("es", "ru")):
    path = f"pbem/locale/{lang}/LC_MESSAGES/pbem.po"
    cat = read_po(open(path, "rb"), locale=lang)
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        empty = (not all(m.string)) if isinstance(m.string, tuple) else not m.string
        if key in T:
            val = T[key][i]
            if isinstance(m.id, tuple):
                assert isinstance(val, list), key
                if lang == "es" and len(val) == 2:  # CLDR es: one, many (millions), other
                    val = [val[0], val[1], val[1]]
                m.string = tuple(val)
            else:
                assert isinstance(val, str), key
                m.string = val
            m.flags.discard("fuzzy")
            out[lang][key] = val
        elif empty:
            missing_all.append((lang, key))
    with open(path, "wb") as fh:
        write_po(fh, cat, width=76, omit_header=False, sort_output=False, include_previous=False)
json.dump(out, open("scratch/translations.json", "w", encoding="utf-8"), ensure_ascii=False, indent=1, sort_keys=True)
print("still missing:", len(missing_all))
for l, k in missing_all[:400]:
    print(l, repr(k)[:120])
