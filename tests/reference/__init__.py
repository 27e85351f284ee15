"""An independent implementation of the record contract, used only to cross-check the engine."""
