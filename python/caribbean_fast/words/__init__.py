"""Everything a person reads of a game, above the engine: the rules document a client shows
(`rules`), a round's history in sentences (`history`) and a variant drawn for the terminal
(`describe`).

Made from the variant's data (its paytables, its layout and the names of its bets,
`variants.shape`) and the engine's records and views; the server sends it, the page and the
terminal render it, and none of them keeps a rule or a word of its own. The engine imports
nothing from here.
"""
