"""Issue 28, the last English in es/ru reports (note28): the units in training named in
the reader's language, and ``Note`` events (free English in the log) told in it."""
from __future__ import annotations

from pbem import i18n
from pbem.pack.loader import load_pack
from pbem.pack.names import localized
from pbem.report.narrate import narrate
from pbem.rules.core.state import Event

TRAINED = ("phalangite", "auxiliary")


def test_units_in_training_are_named_in_the_readers_language() -> None:
    pack = load_pack()
    paid = Event("TrainingPaid", {"seat": "east", "rule": "R-8.4", "units": [],
                                  "paid": [{"unit": "phalangite", "ops": 2}, {"unit": "auxiliary", "ops": 1}]},
                 True, None)
    done = Event("UnitTrained", {"seat": "east", "rule": "R-8.4", "unit": "phalangite"}, True, None)
    assert "phalangite" in narrate(pack, paid) and "auxiliary" in narrate(pack, paid)
    for language in ("es", "ru"):
        tr = i18n.translations(language)
        for e in (paid, done):
            text = narrate(localized(pack, language), e, tr)
            assert not any(u in text for u in TRAINED), f"{language}: {text}"
    es = narrate(localized(pack, "es"), paid, i18n.translations("es"))
    assert "falangita" in es, es
