"""The verification layer: z3 proofs, CrossHair contracts and ambiguity detection.

Everything here is derived from the YAML specs by general code; nothing is
hand-encoded per game, so a spec added later is verified the moment it lands.
``cardspec verify`` runs it (:func:`cardspec.verification.report.verify`).
"""
