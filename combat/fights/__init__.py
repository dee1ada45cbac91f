"""The fights of men at the table: a skirmish, a duel (personal combat) and a boarding
action as encounters of the engines ``btq_skirmish``, ``btq_personal_combat`` and
``btq_boarding`` (``rules.btq.skirmish``, ``rules.btq.personal_combat``,
``rules.btq.boarding``). Their pages are the battle pages of ``combat`` (decisions, events,
fair draws); this package adds the pages that prepare them and the write-back of their end
to the characters' sheets and the ships."""
