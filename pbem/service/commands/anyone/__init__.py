"""Commands any address may send as ``command: NAME`` without a seat key (issue 29):
``observe`` and ``leave`` (:mod:`.observe`), ``record`` (:mod:`.record`) and ``help``
for an address that is no seat (:mod:`.guide`)."""
