"""cardspec: card game rule texts as formal, executable, verifiable specs."""
__version__ = "0.1.0"
