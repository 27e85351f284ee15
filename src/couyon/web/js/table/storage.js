// The game in progress of each game id, remembered in localStorage so that a reload finds it:
// couyon keeps the key it always had (couyon.game), another game adds its id (couyon.game.malmedy).
// The home pages read it (their "Reprendre" button) without loading the table.

const GAME_KEY = "couyon.game";
import { DEFAULT_GAME } from "../games/index.js";

const storageKey = (gameId) => (gameId === DEFAULT_GAME ? GAME_KEY : `${GAME_KEY}.${gameId}`);

/** The id of the game in progress of ``gameId`` kept on this device, or null. */
export function storedGameId(gameId = DEFAULT_GAME) {
  try {
    return localStorage.getItem(storageKey(gameId));
  } catch {
    return null;
  }
}

/** Keep ``id`` as the game in progress of ``gameId`` (null: none). */
export function rememberGame(gameId, id) {
  try {
    if (id) localStorage.setItem(storageKey(gameId), id);
    else localStorage.removeItem(storageKey(gameId));
  } catch {
    // Without storage a reload starts from the home page; nothing else depends on it.
  }
}
