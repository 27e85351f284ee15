// The HTTP API of docs/api.md: one function per endpoint, errors as ApiError. A ``game``
// argument is left out of the request for the default game (couyon).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "network", "network");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: "http", message: response.statusText };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

export const api = {
  newGame: (mode, ranked = true, game = null, options = null, day = null) =>
    request("POST", "/api/games", {
      mode,
      ...(ranked ? {} : { ranked: false }),
      ...(game ? { game } : {}),
      ...(options ? { options } : {}),
      ...(day ? { day } : {}),
    }),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  review: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/review`),
  // A friends' table's finished game, from this person's seat (its answer names the seat: `seat`).
  tableReview: (code, secret) =>
    request("GET", `/api/tables/${encodeURIComponent(code)}/review?secret=${encodeURIComponent(secret)}`),
  hint: (id, moveNumber) => request("POST", `/api/games/${encodeURIComponent(id)}/hint`, { move_number: moveNumber }),
  recoveryCode: () => request("GET", "/api/player/recovery"),
  myRatings: () => request("GET", "/api/ratings/me"),
  ratingBoard: (game) => request("GET", `/api/ratings/board?game=${encodeURIComponent(game)}`),
  recover: (code) => request("POST", "/api/player/recovery", { code }),
  newRecoveryCode: () => request("POST", "/api/player/recovery/new"),
  move: (id, move, moveNumber) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, move_number: moveNumber }),
  daily: (game = null) => request("GET", game ? `/api/daily?game=${encodeURIComponent(game)}` : "/api/daily"),
  dailyResults: (game = null, day = null) => {
    const query = new URLSearchParams({ ...(game ? { game } : {}), ...(day ? { day } : {}) });
    const text = query.toString();
    return request("GET", `/api/daily/results${text ? `?${text}` : ""}`);
  },
  playerStats: (game = null) =>
    request("GET", game ? `/api/player/stats?game=${encodeURIComponent(game)}` : "/api/player/stats"),
  player: () => request("GET", "/api/player"),
  setPlayerName: (name) => request("PUT", "/api/player", { name }),
  leaderboard: (board, day, game = null, period = "all", level = null) => {
    const query = new URLSearchParams(game ? { game, board } : { board });
    if (board === "daily") query.set("day", day);
    else if (period !== "all") query.set("period", period);
    if (board !== "daily" && level) query.set("level", level);
    return request("GET", `/api/leaderboard?${query}`);
  },
};
