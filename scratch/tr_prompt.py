T = {
'A surprise card, never your Tyche play: discard it under surprise_discards: [%(number)s] (a replacement is drawn at once), or play it at its moment (R-8.5).': ('Una carta sorpresa, nunca tu jugada de Tyche: descártala con surprise_discards: [%(number)s] (se roba una de reemplazo al instante), o juégala en su momento (R-8.5).', 'Карта-сюрприз, никогда не ваша игра Тихе: сбросьте её через surprise_discards: [%(number)s] (замена берётся сразу) или сыграйте в её момент (R-8.5).'),
'Event:': ('Evento:', 'Событие:'),
"No event: play it for its OPs (garrisons, training, an army's activation) or discard it.": ('Sin evento: júgala por sus PO (guarniciones, entrenamiento, activar un ejército) o descártala.', 'Без события: сыграйте её ради ОО (гарнизоны, обучение, активация армии) или сбросьте.'),
'event': ('evento', 'событие'),
'general': ('general', 'генерал'),
'primary': ('principal', 'главный'),
'unrest': ('disturbios', 'волнения'),
}
