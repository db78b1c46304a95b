"""Fill the es and ru catalogues from scratch/translations.json (msgid -> msgstr, or a
list of plural forms keyed by the singular msgid)."""
import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
data = json.loads((ROOT / "scratch" / "translations.json").read_text(encoding="utf-8"))
for lang, table in data.items():
    path = ROOT / "pbem" / "locale" / lang / "LC_MESSAGES" / "pbem.po"
    with path.open("rb") as f:
        cat = read_po(f, locale=lang, domain="pbem")
    n = 0
    for m in cat:
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        if key in table:
            v = table[key]
            m.string = tuple(v) if isinstance(m.id, tuple) else v
            m.flags.discard("fuzzy")
            n += 1
    with path.open("wb") as f:
        write_po(f, cat, width=76, omit_header=False)
    print(lang, n, file=sys.stderr)
