"""The game server: an ASGI app (FastAPI) over the store, serving the API and the web table."""
