// A friends' table (issue 21, /work/wt/TABLES-PROTOCOL.md, docs/api.md "Friends' tables"): the lobby
// (the invitation link and code, the seats, the name, the start), then the game drawn by the solo
// table (js/table.js, with the same game modules, pace, sounds and live region) from this person's
// seat (js/friends/seats.js turns the seats), the bar above it (whose turn, the clock, the quick
// messages and their mute), and between games the rematch and the table's results.
//
// Moves go over the table's WebSocket, or over HTTP while the socket is down; the server pushes the
// table and this seat's game answers, which are animated in order, one after the other. A lost socket
// comes back with backoff and says hello with the last move received, so the page catches up without a
// reload; meanwhile it polls over HTTP. Loaded by js/main.js on a #/tables/… route or a home's
// "Jouer entre amis" or "Rejoindre une table", never on the first load.

import { ApiError, api, request } from "../api.js";
import { addWords, formatNumber, refusalText, t } from "../i18n.js";
import { gameInfo, gameName, pageGame } from "../games/index.js";
import { announce, rerender, state } from "../table/shared.js";
import words from "./friends-words.js";
import { seatOrder, turning } from "./seats.js";

addWords(words);

const $ = (id) => document.getElementById(id);
const w = () => t().friends;
const TEAM_GAMES = new Set(["couyon", "malmedy"]);
const OPPOSITE = { S: "N", N: "S", W: "E", E: "W" };
const MESSAGES = ["well_played", "thanks_partner", "oops", "your_turn", "hello", "good_game"];
const MESSAGE_SHOWN_MS = 5000;
const CLOCK_WARNING_S = 10;
const POLL_MS = 2000;
const PING_MS = 25_000;
const MUTE_KEY = "couyon.friends.mute";

let context = null; // what js/main.js gives: openTable, chosenOptions

/** The table shown now and its connection; reset by leave(). */
const here = {
  code: null,
  secret: null,
  table: null,
  name: null, // this player's name, or "" when he has none
  socket: null,
  socketOpen: false,
  retries: 0,
  retryTimer: null,
  pollTimer: null,
  pingTimer: null,
  clockTimer: null,
  shownGame: null, // the id of the table game the table shows
  shownMove: -1, // the move number of the last answer shown
  // The game and move number of the last answer received, maybe still waiting behind the ones being shown: what
  // the page asks from (it asks for nothing twice, so no move is animated or said twice).
  heardGame: null,
  heardMove: -1,
  turn: null, // js/friends/seats.js turning of the game shown
  chain: Promise.resolve(), // the answers being shown, in order
  pending: null, // {moveNumber, resolve, timer}: a move sent over the socket, until its answer comes
  deadlineAt: null, // performance.now() at which the seat to move runs out of time
  clockSeat: null,
  warned: false,
  messages: new Map(), // seat -> {text, until}
  wasOffline: false,
  pollFailed: false, // the last poll over HTTP got no answer
};

export function setUp(given) {
  context = given;
}

// ---------------------------------------------------------------- HTTP

const path = (code, tail = "") => `/api/tables/${encodeURIComponent(code)}${tail}`;
const tables = {
  open: (game, options, clock) => request("POST", "/api/tables", { game, options, clock }),
  join: (code) => request("POST", "/api/tables/join", { code }),
  get: (code, secret) => request("GET", `${path(code)}?secret=${encodeURIComponent(secret)}`),
  sit: (code, secret, seat) => request("POST", path(code, "/seats"), { secret, seat }),
  leave: (code, secret) => request("DELETE", `${path(code, "/seats/mine")}?secret=${encodeURIComponent(secret)}`),
  start: (code, secret) => request("POST", path(code, "/start"), { secret }),
  bot: (code, secret, seat) => request("POST", path(code, `/seats/${encodeURIComponent(seat)}/bot`), { secret }),
  rematch: (code, secret) => request("POST", path(code, "/rematch"), { secret }),
  move: (code, secret, move, moveNumber) =>
    request("POST", path(code, "/moves"), { secret, move, move_number: moveNumber }),
  message: (code, secret, message) => request("POST", path(code, "/messages"), { secret, message }),
  game: (code, secret, since) =>
    request("GET", `${path(code, "/game")}?secret=${encodeURIComponent(secret)}&since=${since}`),
};

/** The route of a table's invitation link (the server's `link`, else built from the code and secret). */
const routeOf = (table) => table.link ?? `/#/tables/${table.code.replace("-", "")}/${table.secret}`;
const goTo = (table) => {
  location.hash = routeOf(table).replace(/^\/?#/, "#");
};

/** A home's "Jouer entre amis": open the table, then its lobby; a refusal is said in ``status`` and returned. */
export async function openNew(game, options, clock, status) {
  try {
    goTo(await tables.open(game, options, clock));
    return null;
  } catch (error) {
    status.textContent = error instanceof ApiError ? refusalText(error) : t().errorGeneric;
    return error;
  }
}

/** A home's "Rejoindre une table": the code read aloud (dash, case and spaces do not matter). */
export async function joinByCode(text, status) {
  const code = text.replace(/[\s-]/g, "").toUpperCase();
  try {
    goTo(await tables.join(code));
  } catch (error) {
    status.textContent = error instanceof ApiError && error.status && error.status !== 404 ? refusalText(error) : w().joinFailed;
  }
}

// ---------------------------------------------------------------- the route

/** The route #/tables/<code>/<secret>: show the table, connecting to it if it is another one. */
export async function showTable(code, secret) {
  if (here.code !== code || here.secret !== secret) {
    leave();
    here.code = code;
    here.secret = secret;
    $("tables-title").textContent = w().loading;
    $("tables-root").replaceChildren();
    try {
      const [table, player] = await Promise.all([tables.get(code, secret), api.player().catch(() => ({ name: "" }))]);
      if (here.code !== code) return;
      here.name = player.name ?? "";
      connect();
      await onTable(table);
    } catch (error) {
      if (here.code !== code) return;
      $("tables-title").textContent = w().loading;
      const line = document.createElement("p");
      line.setAttribute("role", "alert");
      line.textContent = error instanceof ApiError && error.status === 404 ? w().joinFailed : error.message;
      $("tables-root").replaceChildren(line);
      $("tables-title").textContent = t().friendsTitle;
    }
    return;
  }
  if (here.table) await onTable(here.table);
}

/** Leaving the route: close the connection and give the solo table back. */
export function leave() {
  if (!here.code) return;
  here.code = here.secret = here.table = null;
  if (here.socket) {
    here.socket.onclose = null;
    here.socket.close();
  }
  here.socket = null;
  here.socketOpen = false;
  for (const timer of ["retryTimer", "pollTimer", "pingTimer", "clockTimer"]) {
    clearTimeout(here[timer]);
    clearInterval(here[timer]);
    here[timer] = null;
  }
  here.retries = 0;
  here.pollFailed = false;
  here.heardGame = null;
  here.heardMove = -1;
  here.chain = Promise.resolve();
  here.pending = null;
  here.messages.clear();
  const bar = $("friends-bar");
  if (bar) bar.hidden = true;
  delete $("view-table").dataset.shownMove;
  if (state.remote) {
    state.remote = null;
    here.shownGame = null;
    here.shownMove = -1;
    context.openTable().then((table) => table.clear());
  }
}

// ---------------------------------------------------------------- the connection

function connect() {
  const code = here.code;
  if (!code || typeof WebSocket === "undefined") {
    startPolling();
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket;
  try {
    socket = new WebSocket(`${scheme}://${location.host}${path(code, "/socket")}?secret=${encodeURIComponent(here.secret)}`);
  } catch {
    retry();
    return;
  }
  here.socket = socket;
  socket.onopen = () => {
    if (here.socket !== socket) return;
    here.socketOpen = true;
    here.retries = 0;
    stopPolling();
    if (here.wasOffline) {
      here.wasOffline = false;
      announce(w().online);
    }
    const hello = here.heardGame ? { since: here.heardMove, game: here.heardGame } : { since: -1 };
    socket.send(JSON.stringify({ type: "hello", ...hello }));
    clearInterval(here.pingTimer);
    here.pingTimer = setInterval(() => sendFrame({ type: "ping" }), PING_MS);
  };
  socket.onmessage = (event) => {
    if (here.socket !== socket) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  };
  socket.onclose = () => {
    if (here.socket !== socket) return;
    const wasOpen = here.socketOpen;
    here.socket = null;
    here.socketOpen = false;
    clearInterval(here.pingTimer);
    if (here.pending) failPending(new ApiError(0, "network", "network"));
    // A connection that was there is lost (a socket that never opened, where a network holds none, loses
    // nothing: the page plays over HTTP).
    if (wasOpen && !here.wasOffline && here.table) {
      here.wasOffline = true;
      announce(w().offline);
    }
    startPolling();
    retry();
  };
}

/** Try the socket again after 0.5, 1, 2, 4… s (at most 15 s, a little at random so a room does not come back at once). */
function retry() {
  if (!here.code) return;
  const delay = Math.min(15_000, 500 * 2 ** here.retries) * (0.75 + Math.random() / 2);
  here.retries += 1;
  clearTimeout(here.retryTimer);
  here.retryTimer = setTimeout(connect, delay);
}

// A phone that wakes or a network that comes back: try at once rather than at the end of the backoff.
for (const [target, name] of [
  [window, "online"],
  [document, "visibilitychange"],
]) {
  target.addEventListener(name, () => {
    if (!here.code || here.socket || document.visibilityState === "hidden") return;
    reconnectNow();
  });
}

function reconnectNow() {
  here.retries = 0;
  clearTimeout(here.retryTimer);
  connect();
}

function sendFrame(frame) {
  if (!here.socketOpen || !here.socket) return false;
  here.socket.send(JSON.stringify(frame));
  return true;
}

function startPolling() {
  if (here.pollTimer || !here.code) return;
  here.pollTimer = setInterval(poll, POLL_MS);
}

function stopPolling() {
  clearInterval(here.pollTimer);
  here.pollTimer = null;
}

async function poll() {
  const code = here.code;
  try {
    const table = await tables.get(code, here.secret);
    if (here.code !== code || here.socketOpen) return;
    // The server answers again after a poll that failed (the network is back): the socket may too, without
    // waiting for the end of its backoff. (Where only the socket is refused, the backoff holds.)
    if (here.pollFailed && !here.socket) reconnectNow();
    here.pollFailed = false;
    await onTable(table);
  } catch {
    // Still offline: the next poll or the socket will do.
    here.pollFailed = true;
  }
}

function receive(message) {
  switch (message.type) {
    case "table":
      onTable(message.table);
      break;
    case "game":
      onGame(message.answer);
      break;
    case "message":
      onMessage(message.seat, message.message);
      break;
    case "error":
      if (here.pending) failPending(new ApiError(message.status, message.code, message.message));
      else announce(message.message);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- the table's state

async function onTable(table) {
  if (!here.code) return;
  const before = here.table;
  here.table = table;
  const seat = table.me ? table.seats.find((entry) => entry.seat === table.me) : null;
  if (before && seat && before.me === table.me) {
    const was = before.seats.find((entry) => entry.seat === table.me);
    if (was && was.bot_now && !seat.bot_now) announce(w().seatBack);
  }
  setClock(table);
  const seated = Boolean(table.me);
  if (table.state === "waiting" || !seated || !table.game_id) {
    showLobby(table);
    return;
  }
  showPlaying(table);
  // Who holds the seats may have changed (the bot for an absent person, his return): the seats say so.
  if (state.remote && state.model && !state.busy) rerender();
  // A game the table does not show yet (the start, a rematch, a return), or moves it missed while offline.
  // (The socket brings them by itself.)
  if (!here.socketOpen && (table.game_id !== here.heardGame || table.move_number > here.heardMove)) {
    await catchUp(table.game_id);
  }
  renderBar();
}

/** Ask for this seat's answer since the last move received (all of it for a game not received yet); false without one. */
async function catchUp(gameId = here.table && here.table.game_id) {
  const code = here.code;
  const since = gameId === here.heardGame ? here.heardMove : -1;
  try {
    const answer = await tables.game(code, here.secret, since);
    if (here.code !== code) return false;
    onGame(answer);
    return true;
  } catch {
    return false; // The socket or the next poll brings it.
  }
}

function onGame(answer) {
  if (!answer || !answer.view) return;
  if (here.pending && (answer.move_number ?? answer.view.move_number) > here.pending.moveNumber) {
    clearTimeout(here.pending.timer);
    here.pending.resolve();
    here.pending = null;
  }
  const gameId = answer.id ?? here.table.game_id;
  const moveNumber = answer.move_number ?? answer.view.move_number;
  if (gameId !== here.heardGame) here.heardMove = moveNumber;
  else here.heardMove = Math.max(here.heardMove, moveNumber);
  here.heardGame = gameId;
  here.chain = here.chain
    .then(() => showAnswer(answer))
    .catch(() => {
      // Not shown: ask again from what is.
      here.heardGame = here.shownGame;
      here.heardMove = here.shownMove;
    });
}

async function showAnswer(answer) {
  if (!here.code) return;
  const table = await context.openTable();
  let gameId = answer.id ?? here.table.game_id;
  let moveNumber = answer.move_number ?? answer.view.move_number;
  // What is shown already (an answer asked over HTTP while the socket brought it too).
  if (gameId === here.shownGame && moveNumber <= here.shownMove) return;
  if (gameId === here.shownGame && answer.since !== here.shownMove) {
    // Its events start elsewhere than the move shown: an HTTP catch-up asked before the socket's answers came
    // (they would be animated and said twice, or fail on cards already played), or after a lost one. Ask
    // from the move shown instead.
    const code = here.code;
    answer = await tables.game(code, here.secret, here.shownMove);
    if (here.code !== code) return;
    gameId = answer.id;
    moveNumber = answer.move_number;
    if (gameId === here.shownGame && moveNumber <= here.shownMove) return;
  }
  const fresh = gameId !== here.shownGame;
  here.turn = turning(seatOrder(answer.view), answer.view.seat);
  const shown = here.turn.answer({ ...answer, id: gameId, game: answer.game ?? here.table.game });
  shown.events = shown.events ?? [];
  if (fresh) {
    if (state.remote === null || here.shownGame) table.clear();
    table.closeDialogs();
    state.remote = remote;
    here.shownGame = gameId;
    here.shownMove = moveNumber;
    showPlaying(here.table);
    // A game just dealt comes with its events from move 0: the bots' first moves are animated, as at a
    // solo table's start; a game joined later is drawn as it stands.
    await table.open(shown, { fresh: shown.events.length > 0 });
  } else {
    here.shownMove = Math.max(here.shownMove, moveNumber);
    await table.advance(shown);
  }
  // Read by the browser tests: the move number the table shows (a page that caught up shows the server's).
  $("view-table").dataset.shownMove = String(here.shownMove);
  renderBar();
}

// ---------------------------------------------------------------- what the solo table asks (state.remote)

const wrapped = new WeakMap();

const remote = {
  async move(move, moveNumber) {
    if (sendFrame({ type: "move", move, move_number: moveNumber })) {
      await new Promise((resolve, reject) => {
        // No answer in time (a socket half gone): the table is given back to the player (the solo table's
        // error path asks for the game again over HTTP); an answer that comes later is still shown.
        const timer = setTimeout(() => {
          here.pending = null;
          reject(new ApiError(0, "network", "network"));
        }, 8000);
        here.pending = { moveNumber, resolve, reject, timer };
      });
      return;
    }
    const answer = await tables.move(here.code, here.secret, move, moveNumber);
    onGame(answer);
  },
  /** Until the server's view is shown: after a move that failed, maybe taken by the server all the same. */
  async resync() {
    const code = here.code;
    while (here.code === code && !(await catchUp())) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    // Shown once every answer received until then is.
    for (let chain = null; chain !== here.chain; ) {
      chain = here.chain;
      await chain;
    }
  },
  rules(own) {
    if (!wrapped.has(own)) wrapped.set(own, wrapRules(own));
    return wrapped.get(own);
  },
  endOfGame(body) {
    const box = document.createElement("div");
    box.id = "friends-end";
    body.append(box);
    renderEnd(box, "end", true);
    return box.querySelector("#end-rematch");
  },
};

function failPending(error) {
  const pending = here.pending;
  here.pending = null;
  clearTimeout(pending.timer);
  pending.reject(error);
}

/** The seat of the table (its JSON entry) shown at ``shownSeat`` of the game drawn. */
function entryAt(shownSeat) {
  if (!here.turn || !here.table) return null;
  const real = here.turn.toReal(shownSeat);
  return here.table.seats.find((entry) => String(entry.seat) === String(real)) ?? null;
}

/** The name of the real seat drawn at ``shownSeat`` ("Est" drawn at the top for a person sitting West), as the
 * lobby and the table's results name it. */
function realLabel(shownSeat) {
  const real = here.turn.toReal(shownSeat);
  return typeof real === "number" ? w().seatNumber(real) : w().seat[real];
}

/** The game's module, with the seats named by who holds them, the bot and the quick messages beside them. */
function wrapRules(own) {
  const rules = Object.create(own);
  const human = own.human ?? "S";
  rules.seatName = (seat) => {
    // His own seat: coucou says "toi"; the card games say his name where the solo table says "Sud".
    if (seat === human) return own.seatName ? own.seatName(seat) : here.name || t().seat[seat];
    const entry = entryAt(seat);
    if (!entry || entry.holder !== "person") return w().botName(realLabel(seat));
    return entry.name || realLabel(seat);
  };
  rules.playerName = (seat) => (seat === human ? null : rules.seatName(seat));
  rules.seatYou = () => `${here.name || t().seat.S} (${w().you})`;
  rules.seatRole = (seat, model) => {
    const base = own.seatRole ? own.seatRole(seat, model) : seat === "N" ? t().seatPartner : t().seatOpponent;
    const entry = entryAt(seat);
    const marks = [base];
    if (entry && entry.holder === "bot") marks.push(w().bot);
    else if (entry && entry.bot_now) marks.push(w().botNow);
    return marks.filter(Boolean).join(" · ");
  };
  rules.seatBubble = (seat, model) => {
    const entry = entryAt(seat);
    const said = entry ? here.messages.get(String(entry.seat)) : null;
    if (said && said.until > performance.now()) return { className: "bubble-message", text: said.text };
    return own.seatBubble(seat, model);
  };
  return rules;
}

// ---------------------------------------------------------------- the lobby

/** Rebuild a box keeping the focus on the control of the same id, if it is still there. */
function rebuild(box, nodes) {
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
  box.replaceChildren(...nodes);
  if (focused && $(focused)) $(focused).focus();
}

function element(tag, text = null, className = null) {
  const node = document.createElement(tag);
  if (text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(id, text, primary, onClick) {
  const node = element("button", text, primary ? "button primary" : "button");
  node.type = "button";
  node.id = id;
  node.addEventListener("click", onClick);
  return node;
}

const seatLabel = (table, seat) => (typeof seat === "number" ? w().seatNumber(seat) : w().seat[seat]);
const holderText = (entry) =>
  entry.holder === "free" ? w().free : entry.holder === "bot" ? w().bot : entry.name || w().free;

function showLobby(table) {
  $("view-table").hidden = true;
  $("view-tables").hidden = false;
  const bar = $("friends-bar");
  if (bar) bar.hidden = true;
  const words = w();
  const game = gameName(pageGame(table.game));
  $("tables-title").textContent = words.title(table.game.startsWith("tarot") ? `${game} · ${table.seats.length}` : game);
  const nodes = [];

  // The invitation.
  const invite = element("section", null, "panel friends-invite");
  invite.setAttribute("aria-labelledby", "invite-title");
  const inviteTitle = element("h2", words.inviteTitle);
  inviteTitle.id = "invite-title";
  const linkLabel = element("label", words.linkLabel);
  linkLabel.htmlFor = "table-link";
  const link = element("input");
  link.type = "text";
  link.id = "table-link";
  link.readOnly = true;
  link.value = `${location.origin}${routeOf(table)}`;
  const status = element("p", "", "form-status");
  status.id = "copy-status";
  status.setAttribute("role", "status");
  const copy = button("copy-link", words.copyLink, false, async () => {
    try {
      await navigator.clipboard.writeText(link.value);
      status.textContent = w().copied;
    } catch {
      link.select();
      status.textContent = w().copyFailed;
    }
  });
  const linkRow = element("div", null, "name-row");
  linkRow.append(link, copy);
  const facts = element("dl", null, "facts friends-facts");
  const addFact = (term, value, id = null) => {
    const wrapper = element("div");
    const dd = element("dd", value);
    if (id) dd.id = id;
    wrapper.append(element("dt", term), dd);
    facts.append(wrapper);
  };
  addFact(words.codeLabel, table.code, "table-code");
  addFact(words.gameFact, game);
  addFact(words.clockTitle, words.clockFact(table.clock));
  const help = element("p", words.codeHelp, "friends-help");
  invite.append(inviteTitle, linkLabel, linkRow, status, facts, help);
  nodes.push(invite);

  // A name, for a player who has none.
  if (!here.name) nodes.push(nameForm());

  // The seats.
  const seats = element("section", null, "panel friends-seats");
  seats.setAttribute("aria-labelledby", "seats-title");
  const seatsTitle = element("h2", words.seatsTitle);
  seatsTitle.id = "seats-title";
  const teams = TEAM_GAMES.has(pageGame(table.game));
  const betweenGames = table.state === "over" && !table.me;
  const list = element("ul", null, "seat-list");
  for (const entry of table.seats) {
    const item = element("li", null, "seat-entry");
    item.dataset.seat = String(entry.seat);
    const labelId = `lobby-seat-${entry.seat}`;
    const label = element("span", seatLabel(table, entry.seat), "seat-entry-name");
    label.id = labelId;
    const said = [holderText(entry)];
    if (entry.seat === table.me) said.push(words.you);
    if (entry.seat === table.host) said.push(words.host);
    if (entry.holder === "person" && !entry.connected) said.push(words.away);
    // Each person's rating in this game (docs/ratings.md), shown in the lobby.
    if (entry.holder === "person" && entry.rating !== null && entry.rating !== undefined) {
      const rating = formatNumber(entry.rating);
      said.push(entry.rating_provisional ? words.ratingProvisional(rating) : words.rating(rating));
    }
    const holder = element("span", said.join(", "), `seat-holder holder-${entry.holder}`);
    holder.id = `lobby-holder-${entry.seat}`;
    item.append(label, " ", holder);
    if (teams && OPPOSITE[entry.seat]) {
      const partner = table.seats.find((other) => other.seat === OPPOSITE[entry.seat]);
      const text = words.opposite(`${w().seat[partner.seat]} (${holderText(partner)})`);
      item.append(" ", element("span", text, "seat-partner"));
    }
    // Before the first game any free seat; between games, a newcomer may take a seat the bot holds.
    const takable = table.state === "waiting" ? entry.holder === "free" : betweenGames && entry.holder === "bot";
    if (takable) {
      const take = button(`take-${entry.seat}`, words.takeSeat, false, () => takeSeat(entry.seat));
      take.setAttribute("aria-describedby", `${labelId} lobby-holder-${entry.seat}`);
      item.append(take);
    }
    list.append(item);
  }
  seats.append(seatsTitle, element("p", teams ? words.seatsHelpTeams : words.seatsHelp, "friends-help"), list);
  nodes.push(seats);

  // The start, or what the others wait for.
  const actions = element("div", null, "button-row friends-actions");
  const hostEntry = table.seats.find((entry) => entry.seat === table.host);
  if (table.state === "waiting") {
    if (table.me && table.me === table.host) {
      actions.append(button("start-table", words.start, true, startTable));
    } else {
      actions.append(element("p", table.me ? words.waitHost(hostEntry ? hostEntry.name || "" : "") : words.noSeat));
    }
    if (table.me && table.me !== table.host) {
      actions.append(button("leave-seat", words.leaveSeat, false, leaveSeat));
    }
  } else if (!table.me) {
    const open = table.seats.some((entry) => entry.holder === "bot");
    actions.append(element("p", !betweenGames ? words.startedWithout : open ? words.betweenGames : words.allTaken));
  }
  const lobbyStatus = element("p", "", "form-status");
  lobbyStatus.id = "lobby-status";
  lobbyStatus.setAttribute("role", "status");
  nodes.push(actions, lobbyStatus);
  if (table.results && table.results.games > 0) nodes.push(resultsTable(table));
  const keep = $("lobby-status") ? $("lobby-status").textContent : "";
  rebuild($("tables-root"), nodes);
  $("lobby-status").textContent = keep;
}

function nameForm() {
  const form = element("form", null, "panel name-form friends-name");
  form.id = "friends-name-form";
  const label = element("label", t().yourName);
  label.htmlFor = "friends-name";
  const row = element("div", null, "name-row");
  const input = element("input");
  input.type = "text";
  input.id = "friends-name";
  input.maxLength = 24;
  input.autocomplete = "nickname";
  input.setAttribute("aria-describedby", "friends-name-status");
  const save = element("button", t().saveName, "button small");
  save.type = "submit";
  save.id = "friends-name-save";
  const status = element("p", t().nameNeeded, "form-status");
  status.id = "friends-name-status";
  status.setAttribute("role", "status");
  row.append(input, save);
  form.append(label, row, status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const player = await api.setPlayerName(input.value.trim());
      here.name = player.name ?? input.value.trim();
      status.textContent = t().nameSaved;
      if (here.table) showLobby(here.table);
      $("seats-title")?.focus?.();
    } catch (error) {
      status.textContent = error instanceof ApiError ? refusalText(error) : t().errorGeneric;
    }
  });
  return form;
}

async function act(call) {
  const status = $("lobby-status");
  try {
    const table = await call();
    if (table && table.seats) await onTable(table);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "name_required") {
      here.name = "";
      if (here.table) showLobby(here.table);
      $("friends-name")?.focus();
      return false;
    }
    const message = error instanceof ApiError && error.status ? error.message : t().errorGeneric;
    if (status) status.textContent = message;
    announce(message);
    return false;
  }
}

async function takeSeat(seat) {
  if (!here.name) {
    $("friends-name")?.focus();
    return;
  }
  if (await act(() => tables.sit(here.code, here.secret, seat))) {
    // The focus stays in the seats: on the seat now held.
    const holder = $(`lobby-holder-${seat}`);
    if (holder && !document.activeElement?.isConnected) $("seats-title").focus();
  }
}

const startTable = () => act(() => tables.start(here.code, here.secret));
const leaveSeat = () => act(() => tables.leave(here.code, here.secret));

function resultsTable(table) {
  const words = w();
  const section = element("section", null, "panel friends-results");
  const title = element("h2", words.resultsTitle);
  const grid = element("table", null, "summary-table");
  const caption = element("caption", words.gamesPlayed(table.results.games));
  grid.append(caption);
  const head = grid.createTHead().insertRow();
  for (const text of [words.player, words.score, words.wins]) {
    const th = element("th", text);
    th.scope = "col";
    head.append(th);
  }
  const body = grid.createTBody();
  for (const player of table.results.players) {
    const row = body.insertRow();
    const th = element("th", player.name || w().botName(seatLabel(table, player.seat)));
    th.scope = "row";
    row.append(th);
    row.insertCell().textContent = String(player.score);
    row.insertCell().textContent = String(player.wins);
  }
  section.append(title, grid);
  return section;
}

// ---------------------------------------------------------------- the game: the bar above the table

function showPlaying(table) {
  $("view-tables").hidden = true;
  $("view-table").hidden = false;
  $("tables-title").textContent = w().title(gameName(pageGame(table.game)));
  bar().hidden = false;
}

function bar() {
  let box = $("friends-bar");
  if (box) return box;
  box = element("div", null, "friends-bar");
  box.id = "friends-bar";
  const clock = element("p", "", "friends-timer");
  clock.id = "friends-timer";
  const over = element("div", null, "friends-over");
  over.id = "friends-over";
  const silent = element("div", null, "button-row friends-silent");
  silent.id = "friends-silent";
  const messages = element("details", null, "friends-messages");
  messages.id = "friends-messages";
  const summary = element("summary", "");
  summary.id = "friends-messages-summary";
  const row = element("div", null, "button-row");
  row.id = "friends-message-buttons";
  messages.append(summary, row);
  box.append(clock, messages, silent, over);
  // In the action bar, above the question: the clock is beside what it times, on a phone too (the bar is
  // sticky at the bottom there), and the prompt already says whose turn it is ("Anne réfléchit…").
  $("action-bar").insertBefore(box, $("prompt"));
  return box;
}

function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "on";
  } catch {
    return false;
  }
}

function renderBar() {
  const table = here.table;
  if (!table || !table.me || !table.game_id) return;
  const words = w();
  bar();
  $("friends-messages-summary").textContent = words.messagesTitle;
  const row = $("friends-message-buttons");
  if (!row.childElementCount || row.dataset.lang !== document.documentElement.lang) {
    row.dataset.lang = document.documentElement.lang;
    const mute = button("friends-mute", words.mute, false, () => {
      try {
        localStorage.setItem(MUTE_KEY, muted() ? "off" : "on");
      } catch {
        // Without storage the choice is not kept.
      }
      $("friends-mute").setAttribute("aria-pressed", String(muted()));
    });
    const buttons = MESSAGES.map((id) => button(`say-${id}`, words.messages[id], false, () => say(id)));
    row.replaceChildren(...buttons, mute);
  }
  $("friends-mute").setAttribute("aria-pressed", String(muted()));
  // The host may give the seat of a person whose connection is gone to the bot without waiting for the grace.
  const silent =
    table.state === "playing" && table.me === table.host
      ? table.seats.filter((entry) => entry.holder === "person" && !entry.connected && !entry.bot_now)
      : [];
  rebuild(
    $("friends-silent"),
    silent.map((entry) =>
      button(`bot-${entry.seat}`, words.giveToBot(entry.name || seatLabel(table, entry.seat)), false, () =>
        act(() => tables.bot(here.code, here.secret, entry.seat)),
      ),
    ),
  );
  renderEnd($("friends-over"), "bar");
  const end = $("friends-end");
  if (end && end.isConnected && table.state !== "playing") renderEnd(end, "end");
}

/** The rematch and the table's results, once a game is over (in the bar, and in the end-of-game dialog). */
function renderEnd(box, where, over = false) {
  const table = here.table;
  if (!table) return;
  // The end-of-game dialog is drawn when the last move is shown, maybe before the table says it is over.
  if (table.state !== "over" && !(over || where === "end")) {
    box.replaceChildren();
    return;
  }
  const words = w();
  const nodes = [];
  const mine = table.seats.find((entry) => entry.seat === table.me);
  const asked = table.seats.filter((entry) => entry.holder === "person" && entry.rematch);
  const rematch = button(where === "end" ? "end-rematch" : "bar-rematch", words.rematch, true, askRematch);
  rematch.setAttribute("aria-pressed", String(Boolean(mine && mine.rematch)));
  nodes.push(rematch);
  if (gameInfo(table.game).review && table.game_id) {
    // The review from this person's own seat (js/review.js); its "Retour à la table" comes back here.
    const review = element("a", t().reviewGame, "button");
    review.id = `${where}-review`;
    review.href = `${routeOf(table)}/review/${encodeURIComponent(table.game_id)}`;
    nodes.push(review);
  }
  if (asked.length) nodes.push(element("p", words.rematchOf(asked.map((entry) => entry.name).join(", ")), "friends-help"));
  if (table.results && table.results.games > 0) nodes.push(resultsTable(table));
  rebuild(box, nodes);
}

async function askRematch() {
  try {
    const table = await tables.rematch(here.code, here.secret);
    announce(w().rematchAsked);
    if (table && table.seats) await onTable(table);
  } catch (error) {
    announce(error instanceof ApiError && error.status ? error.message : t().errorGeneric);
  }
}

// ---------------------------------------------------------------- quick messages

async function say(id) {
  if (sendFrame({ type: "message", message: id })) return;
  try {
    await tables.message(here.code, here.secret, id);
  } catch (error) {
    announce(error instanceof ApiError && error.status === 429 ? w().tooFast : t().errorGeneric);
  }
}

function onMessage(seat, id) {
  const text = w().messages[id];
  const table = here.table;
  if (!text || !table) return;
  const entry = table.seats.find((other) => String(other.seat) === String(seat));
  here.messages.set(String(seat), { text, until: performance.now() + MESSAGE_SHOWN_MS });
  const name = entry && entry.name ? entry.name : seatLabel(table, seat);
  if (!muted()) announce(w().said(seat === table.me ? `${name} (${w().you})` : name, text));
  if (!state.busy) rerender();
  setTimeout(() => {
    if (!state.busy) rerender();
  }, MESSAGE_SHOWN_MS + 50);
}

// ---------------------------------------------------------------- the clock

function setClock(table) {
  const seat = table.state === "playing" ? table.to_move : null;
  const moved = seat !== here.clockSeat || table.move_number !== here.clockMove;
  here.clockSeat = seat;
  here.clockMove = table.move_number;
  here.deadlineAt =
    table.deadline_ms === null || table.deadline_ms === undefined || seat === null ? null : performance.now() + table.deadline_ms;
  if (moved) here.warned = false;
  clearInterval(here.clockTimer);
  here.clockTimer = here.deadlineAt === null ? null : setInterval(tick, 250);
  tick();
}

function tick() {
  const box = $("friends-timer");
  const table = here.table;
  if (!box || !table) return;
  if (here.deadlineAt === null || here.clockSeat !== table.me) {
    box.textContent = "";
    box.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((here.deadlineAt - performance.now()) / 1000));
  box.hidden = false;
  box.textContent = w().clockLeft(left);
  box.classList.toggle("is-short", left <= CLOCK_WARNING_S);
  if (!here.warned && left <= CLOCK_WARNING_S && left > 0) {
    here.warned = true;
    announce(w().sayClock(left));
  }
  if (left === 0) {
    clearInterval(here.clockTimer);
    here.clockTimer = null;
  }
}
