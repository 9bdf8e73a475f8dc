"""OpenSpiel euchre histories for cardspec's importer tests: random play, seeded.

Run with open_spiel 2.0.2 installed:
    python tests/data/openspiel/generate.py > tests/data/openspiel/euchre-histories.jsonl
"""

import json
import random
import sys

import pyspiel  # type: ignore[import-not-found]

out = []
for params, n in (({}, 40), ({"allow_lone_defender": True}, 40), ({"stick_the_dealer": False}, 20)):
    game = pyspiel.load_game("euchre", params)
    for seed in range(n):
        rng = random.Random(seed)
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                acts = [a for a, _ in st.chance_outcomes()]
                st.apply_action(rng.choice(acts))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        out.append({"params": params, "history": st.history(), "returns": [int(r) for r in st.returns()],
                    "serialized": st.serialize()})
sys.stdout.write("".join(json.dumps(o, sort_keys=True) + "\n" for o in out))
# hands thrown in: without stick the dealer, everyone passes both rounds
game = pyspiel.load_game("euchre", {"stick_the_dealer": False})
extra = []
for seed in range(3):
    rng = random.Random(1000 + seed)
    st = game.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
        else:
            legal = st.legal_actions()
            st.apply_action(24 if 24 in legal else rng.choice(legal))
    extra.append({"params": {"stick_the_dealer": False}, "history": st.history(),
                  "returns": [int(r) for r in st.returns()], "serialized": st.serialize()})
sys.stdout.write("".join(json.dumps(o, sort_keys=True) + "\n" for o in extra))
