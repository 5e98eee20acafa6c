"""Ex illis battles end to end: board, turn bar, actions, morale loop, result.

A battle is a fold over its log: :func:`.engine.apply` is pure — it takes a
:class:`.state.BattleState` (which carries the RNG state) and an action and returns the
next state and the events and chance records it caused.
"""
