T = {
'%(seat)s concedes: it takes no more decisions (the defaults play for it, as in civil disorder) and cannot win; its pieces stay on the map.': ('%(seat)s se rinde: ya no toma decisiones (juegan por él las opciones por defecto, como en desorden civil) y no puede ganar; sus piezas siguen en el mapa.', '%(seat)s сдаётся: он больше не принимает решений (за него играются варианты по умолчанию, как при гражданских беспорядках) и не может победить; его фишки остаются на карте.'),
'%(seat)s proposes %(what)s (proposal %(proposal)s); every seat still in the game votes, and only a unanimous yes carries it.': ('%(seat)s propone %(what)s (propuesta %(proposal)s); vota cada asiento que sigue en la partida, y solo un sí unánime la aprueba.', '%(seat)s предлагает: %(what)s (предложение %(proposal)s); голосует каждое место, оставшееся в игре, и принимается оно только единогласным «да».'),
'%(winner)s wins: every other seat conceded (proposal %(proposal)s).': ('Gana %(winner)s: todos los demás asientos se rindieron (propuesta %(proposal)s).', 'Побеждает %(winner)s: все остальные места сдались (предложение %(proposal)s).'),
'Every seat still in the game agreed to pause it until %(until)s (proposal %(proposal)s).': ('Todos los asientos que siguen en la partida acordaron pausarla hasta %(until)s (propuesta %(proposal)s).', 'Все места, оставшиеся в игре, согласились приостановить её до %(until)s (предложение %(proposal)s).'),
'Proposal %(proposal)s is %(outcome)s (%(why)s): %(votes)s.': ('La propuesta %(proposal)s: %(outcome)s (%(why)s): %(votes)s.', 'Предложение %(proposal)s: %(outcome)s (%(why)s): %(votes)s.'),
'Proposal %(proposal)s is %(outcome)s: %(votes)s.': ('La propuesta %(proposal)s: %(outcome)s: %(votes)s.', 'Предложение %(proposal)s: %(outcome)s: %(votes)s.'),
'The game ends in a draw among %(seats)s, agreed by every seat still in the game (proposal %(proposal)s).': ('La partida termina en tablas entre %(seats)s, acordadas por todos los asientos que siguen en ella (propuesta %(proposal)s).', 'Игра заканчивается ничьей между %(seats)s по согласию всех мест, оставшихся в игре (предложение %(proposal)s).'),
'The pause the seats agreed is over the game after a pause of %(span)s; every open deadline moved on by the time it was paused.': ('Termina la pausa acordada por los asientos tras %(span)s; cada plazo abierto se aplazó el tiempo de la pausa.', 'Пауза, о которой договорились места, окончена через %(span)s; каждый открытый срок сдвинут на время паузы.'),
'a draw among %(seats)s': ('tablas entre %(seats)s', 'ничью между %(seats)s'),
'a pause of %(days)s day(s)': ('una pausa de %(days)s día(s)', 'паузу на %(days)s дн.'),
'no votes': ('sin votos', 'голосов нет'),
'that %(seat)s concedes': ('que %(seat)s se rinda', 'что %(seat)s сдаётся'),
}
