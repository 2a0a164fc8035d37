"""abi: the modules of scripts/gen-abi.py, one per generated artefact or check."""
