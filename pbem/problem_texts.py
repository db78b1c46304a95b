"""Every problem of a rejection in the reader's language (issue 28): a message and a
fix for each problem code of :data:`pbem.problems.CODES`, kept here as English msgids
(marked with :func:`pbem.i18n.N_`, so Babel extracts them into the catalogues) and
translated where a rejection is rendered (:func:`localized`).

English mail keeps each problem's own message and hint as the check wrote them (they
name the card, the space, the step); in another language the problem is said by its
code: :attr:`Text.message` (or :attr:`Text.detail` with the problem's ``params`` when
the check gave them, so names and numbers stay), the rule ID in parentheses, the lines
of the orders block it is on, and :attr:`Text.fix` (or the "did you mean" name the check
found). tests/test_problem_codes.py checks every code has both texts here and in each
catalogue.
"""
from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from pbem import i18n
from pbem.i18n import N_
from pbem.problems import Problem


@dataclass(frozen=True)
class Text:
    """The texts of one problem code: ``message`` (one sentence, no placeholder),
    ``fix`` (how to mend the orders, no placeholder) and ``detail``, a message with
    ``%(name)s`` placeholders used instead of ``message`` when the problem carries
    every one of them in its ``params`` (``fix_detail`` likewise for ``fix``)."""

    message: str
    fix: str
    detail: str | None = None
    fix_detail: str | None = None


TEXTS: dict[str, Text] = {
    'orders.not_a_mapping': Text(N_('The orders (or a part of them) are not a block of keys.'),
                                 N_('Write the orders as keys and values, as in the YAML template of your prompt.')),
    'orders.unknown_key': Text(N_('The orders have a field this decision does not take.'),
                               N_('Remove the field or correct its name; your prompt lists the fields of this decision.')),
    'orders.unknown_space': Text(N_('No space has that name or id.'),
                                 N_("Write the space's name as the map shows it, or its id.")),
    'orders.unknown_seat': Text(N_("The orders name a seat that is not one of the game's."),
                                N_("Name one of the game's seats.")),
    'orders.field_not_used': Text(N_('A field that the chosen use of the card does not read.'),
                                  N_('Remove the field, or choose the use of the card that reads it.')),
    'orders.tyche_only_segment': Text(N_('Surrender or movement in an extra segment that allows only a Tyche play.'),
                                      N_('Give only the tyche: part in this segment.')),
    'turn.not_your_turn': Text(N_('Another seat decides now.'),
                               N_('Wait for your prompt mail.')),
    'turn.first_player_unknown': Text(N_('first_player names no seat of the game.'),
                                      N_("Name one of the game's seats.")),
    'game.over': Text(N_('The game is over.'),
                      N_('No orders are taken any more; the final report has the result.')),
    'rules.not_yet_supported': Text(N_("The judge does not resolve this card's event yet."),
                                    N_('Use the card another way (for its OPs, or discard it) and tell the host.')),
    'rules.pack_incomplete': Text(N_('The data pack lacks a number this rule needs.'),
                                  N_('Tell the host: the data pack must be completed.')),
    'surrender.not_a_mapping': Text(N_('surrender: is not a block of accept, remove, decline or assault.'),
                                    N_('Write surrender: with the keys accept, remove, decline or assault, as in your prompt.')),
    'surrender.duplicate': Text(N_('A space is listed twice.'),
                                N_('List each space once.')),
    'surrender.cannot_accept': Text(N_('You may not accept the surrender of that space.'),
                                    N_('Accept only the spaces your prompt offers.')),
    'surrender.cannot_remove': Text(N_('That space has no enemy garrison to remove.'),
                                    N_('Remove only the garrisons your prompt lists.')),
    'tyche.missing': Text(N_('The orders have no tyche: part: every player-turn plays or discards a card.'),
                          N_('Add a tyche: part naming a card of your hand and its use.')),
    'tyche.not_a_mapping': Text(N_("tyche: is not a block of card, use and the use's fields."),
                                N_('Write tyche: with card: and use:, as in your prompt.')),
    'tyche.card_missing': Text(N_('No card is named.'),
                               N_('Add card: with the number of a card in your hand.')),
    'tyche.card_not_in_hand': Text(N_('The card is not in your hand.'),
                                   N_('Name a card your last prompt shows in your hand.')),
    'tyche.duplicate_card': Text(N_('A card is listed twice.'),
                                 N_('List each card once.')),
    'tyche.not_a_surprise': Text(N_('A surprise discard names a card that is no surprise card.'),
                                 N_('Discard only surprise cards this way.')),
    'tyche.surprise_not_mandatory': Text(N_('A surprise card is given as the Tyche play.'),
                                         N_('Play another card for Tyche; surprise cards are played at their moment.')),
    'tyche.unknown_use': Text(N_('That use of a card does not exist.'),
                              N_('Choose one of the uses your prompt lists for the card.')),
    'tyche.use_not_allowed': Text(N_('The card does not allow that use.'),
                                  N_('Choose one of the uses your prompt lists for the card.')),
    'tyche.must_play_not_discardable': Text(N_('A card that must be played cannot be discarded.'),
                                            N_('Play the card for its event.')),
    'tyche.no_ops': Text(N_('The card has no OPs to use.'),
                         N_('Play the card for its event or discard it.')),
    'tyche.unknown_province': Text(N_('No province has that id.'),
                                   N_('Write a province id as the map shows it.')),
    'tyche.places_missing': Text(N_('Garrisons are placed without places:.'),
                                 N_('Add places: with the spaces of the garrisons.')),
    'tyche.too_many_garrisons': Text(N_("More places than the card's OPs."),
                                     N_('Name at most as many places as the card has OPs.')),
    'tyche.duplicate_place': Text(N_('A space is listed twice.'),
                                  N_('List each space once.')),
    'tyche.garrison_illegal': Text(N_('A garrison may not go to that space.'),
                                   N_('Choose a space your prompt allows for a garrison.')),
    'tyche.training_cards_used': Text(N_('The cards allowed for training this turn are used.'),
                                      N_('Use the card another way.')),
    'tyche.train_missing': Text(N_('train: has no entries.'),
                                N_('Add entries of unit and ops to train:.')),
    'tyche.train_entry': Text(N_('A train: entry is not a block of unit and ops.'),
                              N_('Write each entry with unit: and ops:.')),
    'tyche.train_too_many_ops': Text(N_('More training OPs than the card gives.'),
                                     N_("Spend at most the card's OPs.")),
    'tyche.training_units_full': Text(N_('The units allowed in training at once are all training.'),
                                      N_('Train a unit already in training, or use the card another way.')),
    'tyche.train_overpaid': Text(N_('More OPs than the unit still needs.'),
                                 N_('Pay only the OPs the unit still needs.')),
    'tyche.phalangite_too_fast': Text(N_('A phalangite is paid in fewer segments than allowed.'),
                                      N_('Spread its payment over more segments.')),
    'tyche.auxiliary_same_turn': Text(N_('An auxiliary is paid by several cards in one turn.'),
                                      N_('Pay an auxiliary with one card per turn.')),
    'tyche.too_many_places': Text(N_('More places than units to place.'),
                                  N_('Name one place per unit.')),
    'tyche.nothing_to_place': Text(N_('No unit finishes training with this card, so nothing can be placed.'),
                                   N_('Leave out place: a unit is placed when the last of its OPs is paid.')),
    'tyche.general_place_illegal': Text(N_('The general may not be placed in that space.'),
                                        N_('Choose a space your prompt allows for the general.')),
    'tyche.fleet_upgrade_ops': Text(N_('A fleet upgrade needs a card of other OPs.'),
                                    N_('Use a card with the OPs a fleet upgrade needs.')),
    'tyche.fleet_missing': Text(N_('A fleet upgrade names no fleet.'),
                                N_("Add fleet: with the fleet's name.")),
    'tyche.unknown_fleet': Text(N_('No fleet has that name or id.'),
                                N_("Write the fleet's name as the report shows it.")),
    'tyche.fleet_not_yours': Text(N_('You do not control that fleet.'),
                                  N_('Name one of your own fleets.')),
    'tyche.fleet_at_most': Text(N_('The fleet is already at its largest strength.'),
                                N_('Upgrade another fleet or use the card another way.')),
    'tyche.activate_army_missing': Text(N_('An activation without army and path.'),
                                        N_('Add army: and path: to the activation.')),
    'tyche.moves_missing': Text(N_('Major Campaign without its moves.'),
                                N_('Add moves: with the moves of the campaign.')),
    'tyche.special_unit_gone': Text(N_('The special unit has left its holding box.'),
                                    N_('Use the card another way.')),
    'tyche.special_unit_no_army': Text(N_('No army the special unit could join.'),
                                       N_('Use the card another way.')),
    'tyche.special_unit_army_missing': Text(N_('Several armies could take the special unit.'),
                                            N_('Name the army with army:.')),
    'tyche.unknown_army': Text(N_('None of your armies has that name.'),
                               N_('Name the army by its general, as the report shows it.')),
    'tyche.special_unit_army_illegal': Text(N_('The special unit may not join that army.'),
                                            N_('Name an army your prompt allows.')),
    'tyche.discard_drawn_not_bool': Text(N_('discard_drawn_surprises is not true or false.'),
                                         N_('Write true or false.')),
    'tyche.event_no_subject': Text(N_("Nothing the card's event could act on now."),
                                   N_('Use the card another way.')),
    'tyche.event_choice_missing': Text(N_('Several choices qualify for the event.'),
                                       N_('Name one of the choices your prompt lists.')),
    'tyche.event_choice_illegal': Text(N_("The card's event does not allow that choice now."),
                                       N_('Name one of the choices your prompt lists.')),
    'movement.unknown': Text(N_("movement: is not mercenary, a mercenary's space, none or moves."),
                             N_('Write movement: as your prompt shows.')),
    'movement.mercenary_place_illegal': Text(N_('The mercenary may not go to that space.'),
                                             N_('Choose a space your prompt allows.')),
    'movement.not_a_mapping': Text(N_('A move is not a block of army, path and its options.'),
                                   N_('Write each move with army: and path:.')),
    'movement.unknown_army': Text(N_('None of your armies has that name.'),
                                  N_('Name the army by its general, as the report shows it.')),
    'movement.path_missing': Text(N_('A move has no path.'),
                                  N_('Add path: with the spaces the army moves through.')),
    'movement.bad_path': Text(N_('The path does not follow the map.'),
                              N_("Name adjacent spaces, in order, from the army's space.")),
    'movement.too_far': Text(N_("The path is longer than the army's movement allowance."),
                             N_('Shorten the path.')),
    'movement.bad_assault': Text(N_('assault: is not a number of rolls.'),
                                 N_('Write assault: with a whole number.')),
    'movement.bad_escort': Text(N_('escort: does not list fleets.'),
                                N_('List fleets by name under escort:.')),
    'movement.escort_not_yours': Text(N_('An escort fleet belongs to another seat or to nobody.'),
                                      N_('Escort only with your own fleets.')),
    'movement.escort_dispersed': Text(N_('An escort fleet was dispersed this turn.'),
                                      N_('Escort with another fleet.')),
    'movement.bad_part': Text(N_('A drop or pick-up is not a block of at, cus, generals and royals.'),
                              N_('Write each drop or pick-up with at: and what it moves.')),
    'movement.bad_cus': Text(N_('cus: does not map CU types to counts.'),
                             N_('Write cus: with each CU type and a whole number.')),
    'movement.unknown_royal': Text(N_('No member of the royal family has that name or id.'),
                                   N_('Write the name as the report shows it.')),
    'movement.royal_moved_twice': Text(N_('A member of the royal family moves with a second army.'),
                                       N_('Move each royal with one army.')),
    'movement.illegal': Text(N_('The position does not allow that move.'),
                             N_("Check the army's path and what it carries against the report.")),
    'siege.illegal': Text(N_('The position does not allow that assault.'),
                          N_('Assault only a city your army besieges.')),
    'siege.too_many_assaults': Text(N_('More assaults than the segment allows.'),
                                    N_('Give fewer assaults.')),
    'standing.not_a_list': Text(N_('standing: is not a list.'),
                                N_('Write each standing order as an item of a list (a line starting with -).')),
    'standing.bad_when': Text(N_('A standing order has no known when:.'),
                              N_('Use one of the when: values in the player guide.')),
    'standing.unknown_army': Text(N_('No general or space has that name.'),
                                  N_('Write the name as the report shows it.')),
    'standing.not_your_army': Text(N_("The general is another seat's."),
                                   N_('Give standing orders only for your own armies.')),
    'standing.army_missing': Text(N_('An intercept or avoid order names no army.'),
                                  N_('Add army: to the order.')),
    'standing.bad_toward': Text(N_('toward: does not name one space.'),
                                N_('Write one space after toward:.')),
    'standing.bad_number': Text(N_('A condition is not a number.'),
                                N_('Write a whole number.')),
    'standing.bad_seat': Text(N_("against: (or a free passage's to:) does not list other seats."),
                              N_('List other seats of the game.')),
    'standing.bad_royal': Text(N_("The free passage's royal is not a royal woman."),
                               N_('Name a royal woman.')),
    'standing.bad_fleet': Text(N_('fleets: does not list fleets.'),
                               N_('List fleets by name.')),
    'standing.bad_city': Text(N_('city: does not list major cities.'),
                              N_('List major cities by name.')),
    'standing.bad_join': Text(N_('join: is not true or false.'),
                              N_('Write true or false.')),
    'standing.bad_order': Text(N_('order: does not list CU types, each once.'),
                               N_('List each CU type once.')),
    'standing.order_missing': Text(N_('A losses order has no order:.'),
                                   N_('Add order: with the CU types in the order they are lost.')),
    'standing.play_missing': Text(N_('A standing order for a surprise moment names no card.'),
                                  N_("Add card: with the surprise card's number.")),
    'surprise.not_a_card': Text(N_('A surprise play names no card (or several where one is read).'),
                                N_('Name one card by its number.')),
    'surprise.not_in_hand': Text(N_('The surprise card is not in your hand.'),
                                 N_('Name a surprise card your last prompt shows in your hand.')),
    'surprise.not_a_surprise': Text(N_('The card named for a surprise play is no surprise card.'),
                                    N_('Name a surprise card.')),
    'surprise.wrong_moment': Text(N_('The surprise card is not played at this moment.'),
                                  N_('Play it at the moment its text names.')),
    'surprise.duplicate': Text(N_('A surprise card is named twice, or two for one moment.'),
                               N_('Name each surprise card once, one per moment.')),
    'surprise.no_siege': Text(N_('A siege card where you conduct no siege.'),
                              N_('Play it when your army besieges a city.')),
    'inside.not_a_mapping': Text(N_('inside: is not a block of cities and their units.'),
                                 N_('Write inside: with each city and its units.')),
    'inside.not_major_city': Text(N_('That space is no major city.'),
                                  N_('Name a major city.')),
    'inside.not_your_city': Text(N_('You do not control that major city.'),
                                 N_('Name a major city you control.')),
    'inside.duplicate': Text(N_('A city or a general is listed twice.'),
                             N_('List each once.')),
    'inside.no_such_units': Text(N_('You do not have those units outside there.'),
                                 N_('Name only units you have in that space.')),
    'inside.unknown_cu_type': Text(N_('No CU type has that name.'),
                                   N_('Write a CU type as the report shows it.')),
    'inside.bad_count': Text(N_('A count is not a whole number of CUs.'),
                             N_('Write a whole number.')),
    'inside.over_capacity': Text(N_('More CUs than the city holds inside.'),
                                 N_('Move fewer CUs inside.')),
    'inside.nothing_inside': Text(N_('outside: names a city where you have nothing inside.'),
                                  N_('Name a city where you have units inside.')),
    'commanders.not_a_mapping': Text(N_('commanders: is not a block of spaces and generals.'),
                                     N_('Write commanders: with each space and its general.')),
    'commanders.unknown_general': Text(N_('No general has that name.'),
                                       N_('Write the name as the report shows it.')),
    'commanders.duplicate': Text(N_('A space is given twice.'),
                                 N_('Give each space once.')),
    'commanders.not_there': Text(N_('Your general is not in that space.'),
                                 N_('Name a general who stands in the space.')),
    'commanders.outranked': Text(N_('The general is outranked where he stands.'),
                                 N_('Name the highest-ranking general there.')),
    'reinforcements.not_a_list': Text(N_('reinforcements: is not a list (or default).'),
                                      N_('Write a list of entries, or default.')),
    'reinforcements.entry': Text(N_('An entry is not a block of space, cus and inside.'),
                                 N_('Write each entry with space: and cus:.')),
    'reinforcements.count': Text(N_('A count is not a whole number.'),
                                 N_('Write a whole number.')),
    'reinforcements.too_many': Text(N_('More CUs than you have to place.'),
                                    N_('Place at most the CUs your prompt gives.')),
    'reinforcements.place_illegal': Text(N_('The CU may not go to that space.'),
                                         N_('Choose a space your prompt allows.')),
    'reinforcements.inside_not_bool': Text(N_('inside: is not true.'),
                                           N_('Write inside: true, or leave it out.')),
    'reinforcements.inside_not_your_city': Text(N_('Inside a city that is not yours.'),
                                                N_('Place inside only your own cities.')),
    'reinforcements.inside_besieged': Text(N_('Inside a besieged city.'),
                                           N_('Place the CUs elsewhere.')),
    'reinforcements.inside_full': Text(N_('More CUs inside than the city holds.'),
                                       N_('Place fewer CUs inside.')),
    'reaction.bad_answer': Text(N_('The answer is not join, stay or none.'),
                                N_('Answer with one of the words the prompt offers.')),
    'reaction.bad_army': Text(N_("The army is not one of the window's choices."),
                              N_('Name one of the armies the prompt lists.')),
    'reaction.bad_toward': Text(N_("The space is not one of the window's choices."),
                                N_('Name one of the spaces the prompt lists.')),
    'reaction.bad_fleet': Text(N_('The fleet is not one of your ready fleets.'),
                               N_('Name one of the fleets the prompt lists.')),
    'royals.no_target': Text(N_("The card's event has nothing it can act on now."),
                             N_('Use the card another way.')),
    'royals.royal_missing': Text(N_("The card's event names no member of the royal family."),
                                 N_("Add the member's name.")),
    'royals.unknown_royal': Text(N_('No member of the royal family has that name.'),
                                 N_('Write the name as the report shows it.')),
    'royals.royal_not_allowed': Text(N_("The card's event cannot act on that member."),
                                     N_('Name a member the prompt allows.')),
    'royals.player_not_allowed': Text(N_("The card's event cannot name that seat."),
                                      N_('Name a seat the card allows.')),
    'royals.general_missing': Text(N_('Condemnation names no major general.'),
                                   N_("Add the general's name.")),
    'royals.general_not_allowed': Text(N_('Condemnation cannot name that general.'),
                                       N_('Name a major general the card allows.')),
    'royals.army_missing': Text(N_("The card's event names no army."),
                                N_("Add the army's name.")),
    'royals.army_not_allowed': Text(N_("The card's event cannot name that army."),
                                    N_('Name an army the card allows.')),
    'royals.cannot_activate': Text(N_('Olympias cannot be activated by you now.'),
                                   N_('Use the card another way.')),
    'royals.cannot_bury': Text(N_('The body cannot be buried there now.'),
                               N_('Choose a major city allowed for the burial.')),
    'royals.bad_bury': Text(N_('bury: is not true or a major city.'),
                            N_('Write true or a major city.')),
    'royals.heir_not_controlled': Text(N_('You do not control that heir.'),
                                       N_('Name an heir you control.')),
    'envelope.missing': Text(N_('A line game:, seat:, key:, step: or orders: is missing.'),
                             N_('Start from the YAML template in your last prompt mail.')),
    'envelope.unknown_key': Text(N_('A top-level key the envelope does not have.'),
                                 N_('Remove it or correct its name.')),
    'envelope.command_and_orders': Text(
        N_('The mail holds both a command and orders; the judge does one of them per mail, so it did neither.'),
        N_('For the orders, delete the command: line. For the command, send it in a mail of its own, '
           'without orders: and step:.'),
        N_('The mail holds both command: %(command)s and orders:; the judge does one of them per mail, '
           'so it did neither.')),
    'envelope.unknown_game': Text(N_('No game of that name on this judge.'),
                                  N_('Check the game id in your prompt mail.')),
    'envelope.unknown_seat': Text(N_('The game has no such seat.'),
                                  N_('Write your seat as your prompt mail shows it.')),
    'envelope.step_type': Text(N_('step: is not a whole number.'),
                               N_('Copy the step number from your latest prompt.')),
    'envelope.stale_step': Text(N_('The orders are for a step that is over.'),
                                N_('Copy the step number from your latest prompt.')),
    'envelope.future_step': Text(N_('The orders are for a step that has not come.'),
                                 N_('Copy the step number from your latest prompt.')),
    'envelope.not_your_turn': Text(N_('Your seat has no decision now.'),
                                   N_('Wait for your prompt mail; until then you may send standing orders.')),
    'envelope.orders_type': Text(N_('orders: is not a block of keys.'),
                                 N_('Write the orders under orders:, indented, as in your prompt.')),
    'envelope.seq_type': Text(N_('seq: is not a whole number from 1.'),
                              N_('Use one more than your last seq:.')),
    'envelope.seat_type': Text(N_('seat: is not a text.'),
                               N_("Write your seat's name.")),
    'envelope.out_of_range': Text(N_('step: or seq: is beyond the numbers the judge keeps.'),
                                  N_('Copy the numbers from your latest prompt.')),
    'envelope.stale_seq': Text(N_('seq: is not above the last one taken (an old mail again).'),
                               N_('Use one more than your last seq: and send again.')),
    'envelope.salt_type': Text(N_('salt: is not a text or a number of at most 200 characters.'),
                               N_('Write a shorter salt:.')),
    'auth.key': Text(N_('The seat key is wrong.'),
                     N_('Replace it with your seat key, from the host or your welcome mail (it is case-sensitive).')),
    'auth.sender': Text(N_("The address is not the seat's."),
                        N_("Send from your seat's address, or ask for an address change.")),
    'auth.locked': Text(N_('Too many wrong keys for the seat within the hour: no key is checked now.'),
                        N_('Wait an hour and send again with your seat key.')),
    'auth.results': Text(N_("Our mail server could not confirm your mail's sender (SPF, DKIM, DMARC)."),
                         N_('Send from your own mail account, not through a forwarder or list.')),
    'history.value': Text(N_('history: is not a step number or all.'),
                          N_('Write a step number or all.')),
    'command.unknown': Text(N_('command: names no player command.'),
                            N_('Write command: help for the list of commands.')),
    'command.not_now': Text(N_('The command does not apply to your seat now.'),
                            N_('The reply or the player guide says when it applies.')),
    'command.absence_dates': Text(N_('absence: from or to is missing, not a date, or to is before from.'),
                                  N_('Write both dates as YYYY-MM-DD, from before to.')),
    'command.absence_past': Text(N_('The absence lies in the past.'),
                                 N_('Give dates from today on.')),
    'command.absence_overlap': Text(N_('The absence overlaps one already declared.'),
                                    N_('Choose other dates, or cancel the first absence.')),
    'command.absence_limit': Text(N_("More days than the game's absence limit leaves."),
                                  N_('Declare fewer days.')),
    'command.value': Text(N_("A command's own key has a value it does not take."),
                          N_('Write command: help for the values it takes.')),
    'command.webhook': Text(N_('webhook: is not an http:// or https:// URL.'),
                            N_('Write webhook: followed by the URL your chat gives, or webhook: off.')),
    'command.config_game': Text(N_('The command works only on games made by pbem game new.'),
                                N_('Ask the host.')),
    'command.rate': Text(N_('The command was asked for too often.'),
                         N_('Send it again later.')),
    'command.code': Text(N_('No address change waits for this address with that code.'),
                         N_('Copy the code from the mail the judge sent to this address.')),
    'command.repeat': Text(N_('The same command was carried out before: a copy does nothing.'),
                           N_('Add a seq: line to make it new.')),
    'host.refused': Text(N_('A host command that does not apply now.'),
                         N_('Write one of the host commands that apply now; docs/host-guide.md lists them '
                            '("Host commands").')),
    'press.off': Text(N_('The game has no press.'),
                      N_('Write to the other players directly.')),
    'press.closed': Text(N_('The game is over: press is closed.'),
                         N_('Write to the other players directly.')),
    'press.public_only': Text(N_('Public press goes to all seats.'),
                              N_('Write to: all.')),
    'press.recipients': Text(N_('to: is not all or a list of other seats.'),
                             N_('Write to: all or a list of other seats.')),
    'press.text': Text(N_('The press has no text, or a text too long.'),
                       N_('Write a shorter text: under text:.')),
    'press.grey': Text(N_('grey: is not true or false, or the game allows no grey press.'),
                       N_('Write grey: true or leave it out.')),
    'press.rate': Text(N_('Your seat sent too many press messages within the hour.'),
                       N_('Send it again later.')),
    'command.no_signup': Text(N_('game: names no game open for sign-up.'),
                              N_("Check the game's name with the host.")),
    'command.signup_seat': Text(N_('join: names no seat (or name: is not a short text).'),
                                N_('Name a free seat, and a short name.')),
    'command.seat_taken': Text(N_('join: names a seat another player took.'),
                               N_('Choose another free seat.')),
    'command.signup_twice': Text(N_('This address holds a seat of that game already.'),
                                 N_('Play the seat you have.')),
    'internal': Text(N_('The judge hit an internal error; the host is told.'),
                     N_('Send the mail again later.')),
    'mail.no_orders': Text(N_('No orders block in your own text.'),
                           N_('Put the orders in the body of the mail, not in a quote or an attachment.')),
    'mail.two_documents': Text(N_('Two orders blocks in one mail.'),
                               N_('Send one orders block per mail.')),
    'mail.stray_line': Text(N_('A line inside the orders block is not YAML (often one the mail program wrapped).'),
                            N_('Join the wrapped line, or send the mail as plain text.')),
    'mail.forwarded': Text(N_('The orders are only in a forwarded or quoted part.'),
                           N_('Write the orders in your own text.')),
    'mail.encrypted': Text(N_('The mail is encrypted and the judge cannot read it.'),
                           N_('Send it unencrypted.')),
    'mail.too_large': Text(N_('The mail is larger than the judge accepts.'),
                           N_('Send a shorter mail without attachments.')),
    'mail.unreadable': Text(N_('The mail could not be read.'),
                            N_('Send it again as plain text.')),
    'yaml.syntax': Text(N_('The orders block is not valid YAML.'),
                        N_('Compare it with the template of your prompt: indentation and colons.')),
    'yaml.tab': Text(N_('A tab in the indentation.'),
                     N_('Indent with spaces only.')),
    'yaml.duplicate_key': Text(N_('The same key twice in one block.'),
                               N_('Keep one of them.')),
    'yaml.alias': Text(N_('YAML anchors and aliases are not read.'),
                       N_('Write the values out in full.')),
    'yaml.bad_character': Text(N_('An escape gives a character no mail can carry.'),
                               N_('Remove the escape.')),
    'vote.proposal': Text(N_('A proposal needs one of end: draw (with among:), end: concede or pause: N days.'),
                          N_('Write end: draw with among:, end: concede, or pause: 3 days.')),
    'vote.among': Text(N_("among: is not a list of the game's seats still in it (two or more)."),
                       N_('List two or more seats still in the game, or write among: all.')),
    'vote.days': Text(N_('pause: is not a whole number of days from 1 to 30.'),
                      N_('Write pause: 3 days, from 1 to 30.')),
    'vote.open': Text(N_('Your seat has a proposal open already.'),
                      N_('Wait until it is decided or expires.')),
    'vote.unknown': Text(N_('proposal: names no open proposal of the game.'),
                         N_('Copy the number from the mail that announced the proposal.')),
    'vote.choice': Text(N_('vote: is not yes or no.'),
                        N_('Write vote: yes or vote: no.')),
    'command.signup_finished': Text(N_('Your address finished fewer games on this judge than this game asks for.'),
                                    N_('Finish a game elsewhere on this judge first, or ask the host.')),
    'command.signup_missed': Text(N_('Your address missed a larger share of its decisions than this game allows.'),
                                  N_('Ask the host, or join a game that allows more.')),
    'observe.no_game': Text(N_('game: names no running game of this judge.'),
                            N_('Check the game id with the host.')),
    'observe.off': Text(N_('This game takes no observers.'),
                        N_('Ask the host to open it to observers.')),
    'observe.not_allowed': Text(N_('The host has not allowed this address to observe the game.'),
                                N_('Ask the host to allow your address.')),
    'observe.seat': Text(N_('This address holds a seat of the game: its own reports show more.'),
                         N_('Nothing to do: your seat gets every report.')),
    'observe.confirm': Text(N_('confirm: is not the code the judge mailed to this address for that game.'),
                            N_('Copy the lines of the judge\'s mail exactly, or send command: observe without confirm: '
                               'for the code again.')),
    'observe.not_following': Text(N_('This address observes no such game.'),
                                  N_('Check the game id: command: leave stops a game you observe.')),
    'command.no_substitutes': Text(N_("That game's host turned substitutes off."),
                                   N_('Ask its host, or stand by for every game with game: any.')),
    'command.config_game': Text(N_("That game is defined in the judge's config file; its seats change only there, "
                                   "so it takes no substitutes."),
                                N_('Ask its host for a seat in the config file, or stand by for every game with '
                                   'game: any.')),
    'command.seat_not_free': Text(N_('That seat is not on offer: its player is back, or another substitute took it '
                                     'or asked first.'),
                                  N_('Wait for the next offer: you stay on the standby list.')),
    'command.not_standing_by': Text(N_('Your address is not on the standby list.'),
                                    N_('Send command: standby with standby: true first.')),
    'command.plays_already': Text(N_('Your address plays a seat of that game already.'),
                                  N_('Nothing to do: one seat per address.')),
    'vote.twice': Text(N_('Your seat voted on this proposal already: a vote cannot be changed.'),
                       N_('Wait for the proposal to be decided.')),
    'vote.not_in_game': Text(N_('Your seat is no longer in the game.'),
                             N_('Only seats still in the game propose and vote.')),
    'vote.closed': Text(N_('The game is paused already: no pause is proposed now.'),
                        N_('Propose it again when the game goes on.')),
    'vote.conceded': Text(N_('Your seat conceded: it takes no more orders.'),
                          N_('Nothing to send: your seat is out of the game.')),
}
"""The message and fix of every code of :data:`pbem.problems.CODES` (English msgids)."""

DETAILS: dict[str, str] = {
    "orders.unknown_space": N_("There is no space %(name)s."),
    "host.refused": N_("A host command that does not apply now: %(reason)s."),
    "orders.unknown_key": N_("The orders have a field %(field)s that this decision does not take."),
    "tyche.card_not_in_hand": N_("Card %(card)s is not in your hand."),
    "envelope.unknown_game": N_("There is no game %(game)s on this judge."),
    "envelope.stale_step": N_("Step %(step)s is over: the game is at step %(now)s."),
    "envelope.future_step": N_("Step %(step)s has not come yet: the game is at step %(now)s."),
    "command.repeat": N_("This is the same command as the one applied on %(at)s: a copy does nothing."),
    "command.webhook": N_("webhook: is not an http:// or https:// URL: %(why)s."),
    "command.rate": N_("Your seat sent `command: %(command)s` %(used)s times within the hour; the judge takes it "
                       "at most %(most)s times an hour."),
}
"""Messages with placeholders, used instead of :attr:`Text.message` when a problem
carries the ``params`` they name (the rest of the codes name the thing by ``where``)."""

FIX_DETAILS: dict[str, str] = {
    "tyche.card_not_in_hand": N_("Name a card of your hand: %(hand)s."),
    "envelope.stale_step": N_("Check your latest prompt; if it is yours, use step: %(now)s."),
    "command.repeat": N_("To do it again on purpose, add the line `seq: %(seq)s` and send it again."),
    "movement.unknown_army": N_("Your armies (a general's name or his space): %(army_list)s."),
    "tyche.unknown_army": N_("Armies that qualify (a general's name or his space): %(army_list)s."),
    "tyche.special_unit_army_missing": N_("Write army: with one of these (a general's name or his space): "
                                          "%(army_list)s."),
    "tyche.special_unit_army_illegal": N_("Armies that qualify (a general's name or his space): %(army_list)s."),
}
"""Fixes with placeholders, used instead of :attr:`Text.fix` like :data:`DETAILS`."""

VARIANTS: dict[tuple[str, str], Text] = {
    ("mail.no_orders", "no_block"): Text(
        N_("We found no orders in your mail: orders are a YAML block that starts with a line "
           "'game: <game name>'."),
        N_("Write your orders in the body of your mail (not quoted with '>', not in an attachment or a "
           "forwarded message) as a YAML block whose first line is 'game:' and the game's name, then seat:, "
           "key:, step: and orders:, as in your latest prompt."),
        fix_detail=N_("Line %(near_line)s of your mail starts with '%(near)s:'; did you mean 'game:'? Write "
                      "your orders as a YAML block whose first line is 'game:' and the game's name, then seat:, "
                      "key:, step: and orders:, as in your latest prompt.")),
    ("mail.no_orders", "quoted"): Text(
        N_("We found no orders written by you: the only 'game:' block is in the earlier mail you quoted "
           "(lines starting with '>' or below the line that introduces the quote), and quoted text is never "
           "read as orders."),
        N_("Write your orders above the quote, without '>' in front, as a YAML block whose first line is "
           "'game:' and the game's name.")),
    ("mail.no_orders", "judge_mail"): Text(
        N_("We found no orders written by you: the only 'game:' block is inside the judge's own mail, which "
           "your mail program included below your reply without '>' marks; the judge never reads its own "
           "mail as orders, edited or not."),
        N_("Copy the block to the top of your reply, above the earlier mail and the header lines your mail "
           "program put before it, edit it there and send again.")),
    ("mail.no_orders", "not_a_mapping"): Text(
        N_("Your orders are not a block of 'key: value' lines: they must be a YAML block of such lines "
           "starting with 'game:'."),
        N_("Write your orders as a YAML block whose first line is 'game:' and the game's name, then seat:, "
           "key:, step: and orders:, as in your latest prompt.")),
    ("mail.no_orders", "no_game"): Text(
        N_("Your orders have no 'game:' line: the block must start with 'game:' and the game's name."),
        N_("Add the line 'game:' with the game's name at the top of the block, as in your latest prompt."),
        detail=N_("Your orders have no 'game:' line (found '%(found)s:'; keys are lowercase): the block must "
                  "start with 'game:' and the game's name.")),
    **{("host.refused", f"value:{kind}"): Text(
        N_("A host command's field has a value of another kind."),
        N_("Write the field as the example shows; a value of another kind is never read as a default or as "
           "every seat (docs/host-guide.md, \"Host commands\")."),
        detail=detail,
        fix_detail=N_("Write it as `%(example)s`; a value of another kind is never read as a default or as every "
                      "seat (docs/host-guide.md, \"Host commands\").")) for kind, detail in (
        ("text", N_("`command: %(command)s` needs `%(key)s` as a text, e.g. `%(example)s`; found %(found)s.")),
        ("seat", N_("`command: %(command)s` needs `%(key)s` as a seat's name (north, east, south or west), "
                    "e.g. `%(example)s`; found %(found)s.")),
        ("number", N_("`command: %(command)s` needs `%(key)s` as a number, e.g. `%(example)s`; found %(found)s.")),
        ("whole", N_("`command: %(command)s` needs `%(key)s` as a whole number, e.g. `%(example)s`; found "
                     "%(found)s.")),
        ("flag", N_("`command: %(command)s` needs `%(key)s` as true or false, e.g. `%(example)s`; found "
                    "%(found)s.")),
        ("address", N_("`command: %(command)s` needs `%(key)s` as a name and an address, `Name <address>`, "
                       "e.g. `%(example)s`; found %(found)s.")))},
    ("command.signup_seat", "join"): Text(
        N_("join: names no seat of the game."),
        N_("Write join: any or one of the free seats."),
        detail=N_("join: %(found)s is no seat of the game: a seat is north, east, south or west."),
        fix_detail=N_("Write `join: any` or one of the free seats: %(free)s.")),
    ("command.signup_seat", "name"): Text(
        N_("name: is not a short text."),
        N_("Write your name as text, e.g. `name: Ann`."),
        detail=N_("name: must be a text of 1 to %(most)s characters, the name the other players see; found "
                  "%(found)s.")),
    ("envelope.missing", "host"): Text(
        N_("A host command by mail needs the line `host: <your host key>` (a seat's mail has `seat:` and `key:` "
           "instead); this mail has neither."),
        N_("Your host key is the one `pbem game new` (or `pbem game open`) printed when the game was made; for a "
           "game of the judge's config, the key whose hash is its `host_key_hash` (docs/host-guide.md, "
           "\"Host commands\").")),
    ("auth.key", "host"): Text(
        N_("This mail is not from the host of that game with its host key, so no host command was carried out."),
        N_("Send host commands from the host's address with the host key that `pbem game new` (or `pbem game "
           "open`) printed; a game of the judge's config takes them once its config has `host_key_hash` "
           "(docs/host-guide.md).")),
    ("host.refused", "named"): Text(
        N_('A host command that does not apply now.'),
        N_('Write the command the reply names instead.'),
        detail=N_("A host command that does not apply now: %(reason)s.")),
    ("host.refused", "signup"): Text(
        N_("A host command that works only once the game has started; the game is still open for sign-up."),
        N_("`command: status` shows who joined; the game starts when the last seat is taken."),
        detail=N_("%(game)s is open for sign-up and has not started (%(taken)s of %(seats)s seats taken): "
                  "`command: %(command)s` works once it starts.")),
    ("host.refused", "unknown"): Text(
        N_("There is no such host command."),
        N_('Write one of the host commands that apply now; docs/host-guide.md lists them ("Host commands").'),
        detail=N_("There is no host command %(command)s; the commands are %(names)s.")),
    ("auth.key", "placeholder"): Text(
        N_("The `key:` line still holds the placeholder YOUR-SEAT-KEY."),
        N_("Replace YOUR-SEAT-KEY with your seat key, from the host or your welcome mail (it is case-sensitive).")),
    ("command.value", "choice"): Text(
        N_("A command's own key has a value it does not take."),
        N_("Write command: help for the values it takes."),
        detail=N_("`%(key)s:` takes one of %(choices)s; found %(found)s."),
        fix_detail=N_("Write `%(key)s: %(first)s`, or another of %(choices)s.")),
    ("command.value", "flag"): Text(
        N_("A command's own key is not true or false."),
        N_("Write true or false."),
        detail=N_("`%(key)s:` must be true or false; found %(found)s."),
        fix_detail=N_("Write `%(key)s: true` or `%(key)s: false`.")),
    ("command.value", "name"): Text(
        N_("name: is not a short text."),
        N_("Write your name as text, e.g. `name: Ann`."),
        detail=N_("name: must be a text of 1 to %(most)s characters, the name the other players see; found "
                  "%(found)s.")),
    ("command.value", "no_preference"): Text(
        N_("No preference given."),
        N_("Add one or more of `map: on|off`, `format: html|plain`, `digest: daily|off`, `language: en|es|ru`, "
           "`json: on|off`, `webhook: URL|off`.")),
    ("command.value", "language"): Text(
        N_("language: is not a language of this judge."),
        N_("Write one of en, es, ru, e.g. `language: es`."),
        detail=N_("language: %(found)s is not a language of this judge: it writes English (en), Spanish (es) "
                  "and Russian (ru)."),
        fix_detail=N_("Write one of %(languages)s, e.g. `language: es`.")),
}
"""The texts of a problem code by the case its check found (``params["why"]``), used
instead of :data:`TEXTS`' when a problem names one, so a reader of Spanish or Russian
is told what the English check's own words tell (issue 28 lang28d): ``mail.no_orders``
says whether there was no block at all (then that the block starts with ``game:``),
only a quoted one, only the judge's own, a block that is no mapping, or one without
``game:`` (item 2); a value of the wrong kind names the field and the kind it takes
(``host.refused`` by the field's kind, the sign-up's ``join:``, ``name:`` and
``language:``, ``command.value``'s choices and flags; item 5); a host's mail without its
key says where the host key is (``envelope.missing`` and ``auth.key`` for a host, item 6;
the sign-up game's refusal too, lang28e item 4); a seat key still the prompt's
placeholder says so (``auth.key``, ``why: placeholder``, lang28e item 3); a host
command's refusal tells the host to write the command it names only when its reason
names one (``host.refused``, ``why: named``), else points to docs/host-guide.md's list of
host commands (lang28e item 5); a host command for a game still open for sign-up names
the command and how many seats are taken (``why: signup``), and one that does not exist
names what was written and lists the host commands (``why: unknown``; lang28f item 2).
A case's ``detail`` and ``fix_detail`` take the problem's other ``params``."""


def _texts(p: Problem) -> Text:
    """The texts of ``p``: its case's (:data:`VARIANTS`) or its code's (:data:`TEXTS`)."""
    why = (p.params or {}).get("why")
    return VARIANTS.get((p.code, str(why)), TEXTS[p.code]) if why is not None else TEXTS[p.code]


_LINES = re.compile(r"^lines? ([\d, and]+?)(?: \(lines? ([\d, and]+?) of your mail\))?: ")
_DID_YOU_MEAN = re.compile(r"^did you mean (.+)\?$")
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


def _filled(template: str | None, params: Mapping[str, object] | None, tr: gettext.NullTranslations
            ) -> str | None:
    """``template`` translated and filled with ``params``, or None when there is no
    template or ``params`` lacks one of its placeholders."""
    if not template or not all(name in (params or {}) for name in _PLACEHOLDER.findall(template)):
        return None
    return tr.gettext(template) % {k: str(v) for k, v in (params or {}).items()}


def message_of(p: Problem, tr: gettext.NullTranslations) -> str:
    """The message of ``p`` in the language of ``tr`` by its code (:data:`TEXTS`; its
    :data:`DETAILS` template when ``p.params`` has every placeholder), after the lines
    of the orders block it is on (what :func:`pbem.problems.grouped` wrote into the
    English message) and with its rule ID in parentheses (R-…)."""
    texts = _texts(p)
    text = (_filled(texts.detail, p.params, tr) or _filled(DETAILS.get(p.code), p.params, tr)
            or tr.gettext(texts.message))
    m = _LINES.match(p.message)
    if m:
        own, mail = _numbers(m.group(1)), _numbers(m.group(2) or "")
        where = tr.ngettext("line %(lines)s", "lines %(lines)s", len(own)) % {"lines": ", ".join(own)}
        if mail:
            where += " " + tr.ngettext("(line %(lines)s of your mail)", "(lines %(lines)s of your mail)",
                                       len(mail)) % {"lines": ", ".join(mail)}
        text = tr.gettext("%(lines)s: %(message)s") % {"lines": where, "message": text}
    if p.rule:
        text = tr.gettext("%(problem)s (%(rule)s).") % {"problem": text.removesuffix("."), "rule": p.rule}
    return text


def fix_of(p: Problem, tr: gettext.NullTranslations, name_of: Callable[[str], str] | None = None,
           card_of: Callable[[int], str] | None = None) -> str:
    """How to mend ``p``, in the language of ``tr``: the name the check found nearest
    to what the orders wrote ("did you mean …?", the name as the pack or the game
    writes it; ``name_of`` shows it as the reader finds it, ``"Bizancio (Byzantium)"``:
    :func:`pbem.pack.names.shown_name`) when the check gave one, else the code's
    :attr:`Text.fix`. With ``card_of`` (a card number -> ``"#59 Хлебный обоз (2 ОО)"``
    in the reader's language), a problem whose ``params`` name the seat's hand
    (``cards``) and a card of it close to what was written (``near``) lists that hand
    and that card as the reader names them (issue 28 trial: the hand came in English)."""
    m = _DID_YOU_MEAN.match(p.hint or "")
    if m:
        name = m.group(1)
        return tr.gettext("did you mean %(name)s?") % {"name": name_of(name) if name_of else name}
    params = p.params
    near = ""
    if card_of is not None and params and isinstance(params.get("cards"), list):
        params = {**params, "hand": ", ".join(card_of(n) for n in params["cards"])}
        if isinstance(params.get("near"), int):
            near = tr.gettext("did you mean %(name)s?") % {"name": card_of(params["near"])} + " "
    if p.code in _ARMY_LISTS and params:
        params, near = _army_params(params, tr, name_of or (lambda x: x))
    texts = _texts(p)
    return near + (_filled(texts.fix_detail, params, tr) or _filled(FIX_DETAILS.get(p.code), params, tr)
                   or tr.gettext(texts.fix))


_ARMY_LISTS = ("movement.unknown_army", "tyche.unknown_army", "tyche.special_unit_army_missing",
               "tyche.special_unit_army_illegal")
"""The codes whose ``params`` list armies (``armies``, and ``near``: the "did you mean"),
said in the reader's language by :func:`_army_params`."""


def _army_params(params: Mapping[str, object], tr: gettext.NullTranslations, show: Callable[[str], str]
                 ) -> tuple[Mapping[str, object], str]:
    """The params of a problem that lists armies (:data:`_ARMY_LISTS`: an unknown army
    of a move or of a special unit's card, a special unit's army missing or not
    allowed) with its armies said in the
    language of ``tr`` (``army_list``: ``"Лисимах (Lysimachus) (Сарды (Sardis))"``, a
    minor general's army as "the minor general in …"; absent when the seat has none,
    so the code's fix is given), and the "did you mean" of its ``near`` name ("" when
    none). ``show`` gives a canonical name as the reader finds it (issue 28)."""
    near = params.get("near")
    said = tr.gettext("did you mean %(name)s?") % {"name": show(near)} + " " if isinstance(near, str) else ""
    armies = params.get("armies")
    if not isinstance(armies, list) or not armies:
        return params, said
    parts = [tr.gettext("%(general)s (%(space)s)") % {"general": show(str(g)), "space": show(str(x))} if g
             else tr.gettext("the minor general in %(space)s") % {"space": show(str(x))}
             for g, x in armies]
    return {**params, "army_list": ", ".join(parts)}, said


def localized(p: Problem, tr: gettext.NullTranslations, name_of: Callable[[str], str] | None = None,
              card_of: Callable[[int], str] | None = None) -> Problem:
    """``p`` as a reader of ``tr``'s language reads it: unchanged in English (the
    check's own words; a problem the check gave no fix gets its code's
    :attr:`Text.fix`, so every problem names how to mend it, issue 24 N6), else its
    message and fix by code (:func:`message_of`,
    :func:`fix_of`, a suggested name shown by ``name_of``, cards by ``card_of``); a code without texts (none:
    the catalogue test checks) stays as it is. Code, rule, where and line never change."""
    if p.code not in TEXTS:
        return p
    if i18n.language_of(tr) == i18n.DEFAULT:
        return p if p.hint else replace(p, hint=TEXTS[p.code].fix)
    return replace(p, message=message_of(p, tr), hint=fix_of(p, tr, name_of, card_of))


__all__ = ["DETAILS", "FIX_DETAILS", "TEXTS", "Text", "VARIANTS", "fix_of", "localized", "message_of"]
