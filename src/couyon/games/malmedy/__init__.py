"""The couyon de Malmedy, a variant of couyon: five cards and a blind, the mite (malmedy.md)."""
