import tempfile, re, sys, email, email.policy
from collections import Counter
from pathlib import Path
from tests.service import pseudolocale as P
kinds = sys.argv[1].split(",")
with tempfile.TemporaryDirectory() as tmp:
    judge, addresses = P.play(Path(tmp), int(sys.argv[2]) if len(sys.argv)>2 else 1, 30)
    names = P.names_of(judge.pack_for("p1" if len(sys.argv)<3 else f"p{sys.argv[2]}"))
    c = Counter()
    for row_id, kind, to in judge.store.db.execute("SELECT id, kind, to_addr FROM outbox ORDER BY id").fetchall():
        if to not in addresses: continue
        msg = email.message_from_bytes(judge.store.outbox_row(row_id)["raw"], policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()
        k = P.kind_of(kind, text)
        if k not in kinds: continue
        m, u = P.unmarked_prose(text, names)
        for l in u:
            c[re.sub(r"\d+", "N", l.strip())[:110]] += 1
    for l, n in c.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 150):
        print(n, l)
