// The table every game shares: renders a game view, animates the events the server returns,
// and turns clicks, taps, drags and keys into intents. It never decides legality: only the
// moves listed in view.legal can be sent.
//
// What differs between games lives in the game's module (js/games/<id>.js, loaded through
// js/games/index.js's gameModule with its words); the interface such a module answers, and the
// module map, are in docs/web.md ("Several games"). What the games use of the table (its state,
// the live region, the buttons, the events every trick game has) is in js/table/shared.js, which
// imports no game: the games never import this file. Loaded by js/main.js when first needed.
//
import { api, ApiError } from "./api.js";
import { cardBack, cardFace, tableCard } from "./cards.js";
import { cardName, currentLanguage, formatDay, refusalText, t } from "./i18n.js";
import { pace, playSound, setSound, setSpeed, soundOn, speed } from "./settings.js";
import { DEFAULT_GAME, apiGame, gameInfo, gameModule, gameName, pageGame } from "./games/index.js";
import { SEATS, announce, clone, seatName, seatYou, seatsOf, setRenderer, state } from "./table/shared.js";
import { rememberGame } from "./table/storage.js";

export { currentGame, rerender } from "./table/shared.js";

setRenderer(render);

const DRAG_THRESHOLD = 8;

const $ = (id) => document.getElementById(id);

const MAX_BACKS = 10;
const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** A pause of the animation: ``ms``, or less if the player skips it (then no more pauses until his turn). */
function pause(ms) {
  if (ms <= 0 || state.hurry) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      state.wakers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    state.wakers.add(wake);
  });
}

/** A tap on the table, Escape or Space: the bots' moves still under way are shown at once. */
function hurry() {
  if (!state.busy || state.hurry) return;
  state.hurry = true;
  $("view-table").classList.add("is-hurried");
  for (const wake of [...state.wakers]) wake();
}

/** Each batch of moves starts at the chosen pace again. */
function endHurry() {
  state.hurry = false;
  $("view-table").classList.remove("is-hurried");
}

/** The page's game of an API answer (answers from before several games carry none; ``tarot4`` is ``tarot``). */
const gameOf = (answer) => pageGame(answer.game ?? DEFAULT_GAME);

/** Whether the table shows a game of this kind or is starting one (then nothing else should be loaded). */
export function hasGame(gameId = DEFAULT_GAME) {
  if (state.starting) return state.starting === gameId;
  return state.game !== null && gameOf(state.game) === gameId;
}

// ---------------------------------------------------------------- rendering

/** A seat's box on the felt; seats couyon has not (NW, NE) are made on first use. */
function seatElement(seat) {
  let element = $(`seat-${seat}`);
  if (!element) {
    element = document.createElement("div");
    element.id = `seat-${seat}`;
    element.className = `seat seat-${seat} seat-extra`;
    $("seat-W").before(element);
  }
  return element;
}

function renderSeat(seat, model) {
  const words = t();
  const rules = state.rules;
  const element = seatElement(seat);
  const deal = model.deal;
  const count = model.hand_sizes[seat];
  const toMove = model.to_move === seat && model.phase !== "over";
  element.classList.toggle("is-turn", toMove);
  element.classList.toggle("is-dealer", deal.dealer === seat);
  element.replaceChildren();

  // What is shown around a seat is read as one list ("Est, adversaire, donneur, 3 cartes"),
  // not as the run of its pieces ("Est adversaire 3 cartes Donneur").
  const said = [seat === "S" ? seatYou() : seatName(seat)];
  const name = document.createElement("p");
  name.className = "seat-name";
  name.setAttribute("aria-hidden", "true");
  name.textContent = said[0];
  const roleText = rules.seatRole ? rules.seatRole(seat, model) : seat === "N" ? words.seatPartner : words.seatOpponent;
  if (seat !== "S" && roleText) {
    const role = document.createElement("span");
    role.className = "seat-role";
    role.textContent = roleText;
    name.append(" ", role);
    said.push(roleText);
  }
  element.append(name);

  if (seat !== "S") {
    const backs = document.createElement("div");
    backs.className = "backs";
    backs.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(count, MAX_BACKS); i += 1) backs.append(cardBack("small"));
    element.append(backs);
  }

  const status = document.createElement("p");
  status.className = "seat-status";
  status.setAttribute("aria-hidden", "true");
  const chips = [];
  if (deal.dealer === seat) chips.push(["chip-dealer", words.dealer]);
  chips.push(...rules.seatChips(seat, model));
  if (toMove) chips.push(["chip-turn", model.phase === "bidding" ? words.toBid : words.toMove]);
  if (seat !== "S") {
    const cards = document.createElement("span");
    cards.className = "seat-count";
    cards.textContent = words.cardsInHand(count);
    status.append(cards);
  }
  for (const [className, text] of chips) status.append(chip(className, text));
  said.push(...chips.map(([, text]) => text));
  if (seat !== "S") said.push(words.cardsInHand(count));
  element.append(status);
  const list = document.createElement("p");
  list.className = "visually-hidden";
  list.textContent = `${said.join(", ")}.`;
  element.append(list);

  const bubbleText = rules.seatBubble(seat, model);
  if (bubbleText) {
    const bubble = document.createElement("p");
    bubble.className = `bubble ${bubbleText.className}`;
    bubble.textContent = bubbleText.text;
    element.append(bubble);
  }
}

function chip(className, text) {
  const element = document.createElement("span");
  element.className = `chip ${className}`;
  element.textContent = text;
  return element;
}

function renderTrick(model, arriving = null) {
  const trickBox = $("trick");
  const trick = model.deal.trick;
  const present = new Map([...trickBox.children].map((node) => [node.dataset.seat, node]));
  const wanted = new Set(trick.cards.map((entry) => entry.seat));
  for (const [seat, node] of present) if (!wanted.has(seat)) node.remove();
  for (const entry of trick.cards) {
    const existing = present.get(entry.seat);
    // Kept as it is unless the card or the language of its letters changed.
    if (existing && existing.dataset.card === entry.card && existing.dataset.lang === currentLanguage()) continue;
    if (existing) existing.remove();
    const slot = document.createElement("div");
    slot.className = `slot slot-${entry.seat}`;
    slot.dataset.seat = entry.seat;
    slot.dataset.card = entry.card;
    slot.dataset.lang = currentLanguage();
    const card = tableCard(entry.card);
    card.setAttribute("aria-label", t().playedBy(seatName(entry.seat), cardName(entry.card)));
    if (arriving && arriving.seat === entry.seat) slot.classList.add(arriving.dropped ? "dropped" : `fly-from-${entry.seat}`);
    slot.append(card);
    trickBox.append(slot);
  }
}

/** Each team's standing lines as chalk strokes; lines erased since the last drawing are rubbed out. */
function renderChalk(model) {
  const words = t();
  if (state.rules.renderScore) {
    $("chalk-title").textContent = state.rules.scoreTitle();
    $("chalk-hole").hidden = true;
    state.rules.renderScore($("chalk-teams"), model);
    return;
  }
  $("chalk-title").textContent = words.chalkTitle;
  const box = $("chalk-teams");
  const previous = state.chalkShown;
  box.replaceChildren();
  for (const team of ["NS", "WE"]) {
    const lines = model.lines[team];
    const before = previous ? previous[team] : lines;
    const column = document.createElement("div");
    column.className = "chalk-team";
    const title = document.createElement("p");
    title.className = "chalk-name";
    title.textContent = words.team[team];
    const strokes = document.createElement("div");
    strokes.className = "strokes";
    strokes.setAttribute("aria-hidden", "true");
    const slots = Math.max(state.rules.startLines, lines, before);
    for (let i = 0; i < slots; i += 1) {
      const stroke = document.createElement("span");
      if (i < lines) stroke.className = i >= before ? "stroke stroke-new" : "stroke";
      else stroke.className = i < before ? "stroke stroke-erasing" : "stroke stroke-erased";
      strokes.append(stroke);
    }
    const count = document.createElement("p");
    count.className = "chalk-count";
    count.textContent = words.linesLeft(lines);
    column.append(title, strokes, count);
    box.append(column);
  }
  state.chalkShown = { ...model.lines };
  const note = state.rules.chalkNote(model);
  const hole = $("chalk-hole");
  hole.hidden = !note;
  hole.replaceChildren(...(note ? note : []));
}

function renderFacts(model) {
  const list = $("deal-facts");
  list.replaceChildren();
  for (const [term, value] of state.rules.facts(model)) {
    const wrapper = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    wrapper.append(dt, dd);
    list.append(wrapper);
  }
}

function southMayAct(model) {
  if (!model || state.busy || model.phase === "over") return false;
  return state.rules.southActs ? state.rules.southActs(model) : model.to_move === "S";
}

function renderActions(model) {
  const words = t();
  const acting = southMayAct(model);
  const playingNow = acting && state.rules.playsCards(model);
  state.rules.renderControls(model, acting);
  // A friends' table (state.remote) asks for a rematch instead of a new game of one's own.
  $("table-new-game-row").hidden = model.phase !== "over" || Boolean(state.remote);
  const prompt = $("prompt");
  if (model.phase === "over") prompt.textContent = words.promptOver;
  else if (acting) showPrompt(prompt, state.rules.prompt(model));
  else if (model.to_move && model.to_move !== (state.rules.human ?? "S")) {
    prompt.textContent = words.promptWait(seatName(model.to_move));
  }
  else prompt.textContent = "";
  renderHand(model, playingNow, acting && state.rules.picking ? state.rules.picking(model) : null);
  renderHint(model, acting);
}

// ---------------------------------------------------------------- hints and sound

/** The hint button (free games only), and the expert's move told for the view shown, marked where it is. */
function renderHint(model, acting) {
  const offered = state.game.mode === "free" && model.phase !== "over";
  $("hint-button").hidden = $("hint-note").hidden = !offered;
  $("hint-button").setAttribute("aria-disabled", String(!acting));
  const hint = state.hint;
  const shown = acting && hint && hint.game === state.game.id && hint.moveNumber === model.move_number;
  for (const node of document.querySelectorAll(".is-hinted")) node.classList.remove("is-hinted");
  $("hint-line").hidden = !shown;
  $("hint-line").textContent = shown ? t().hintSays(hintName(hint.move)) : "";
  if (shown) for (const node of hintedNodes(hint.move)) node.classList.add("is-hinted");
}

/** The hand cards or the visible button a move of ``view.legal`` is made with (tarot: ``ecart:…`` is both). */
function hintedNodes(move) {
  const [action, cards] = move.split(":");
  const visible = (node) => node && !node.hidden && node.checkVisibility();
  const ids = [move, `${move}-button`, `bid-${move}`, move.replace(":", "-"), `${action}-button`];
  const controls = $("game-controls");
  const button =
    ids.map((id) => controls.querySelector(`#${CSS.escape(id)}`)).find(visible) ??
    [...controls.querySelectorAll("[data-move]")].find((node) => node.dataset.move === move && visible(node));
  const played = handButton(move) ? [move] : cards && !move.startsWith("call:") ? cards.split(",") : [];
  return [...(button ? [button] : []), ...played.map(handButton).filter(Boolean)];
}

/** A hinted move in the words the player sees: the button's, and the cards as the hand names them. */
function hintName(move) {
  const nodes = hintedNodes(move);
  const names = nodes.map((node) =>
    node.classList.contains("hand-card") ? node.getAttribute("aria-label") : node.textContent.trim(),
  );
  return names.length ? names.join(", ") : move;
}

async function askHint() {
  const model = state.model;
  const game = state.game;
  if (!southMayAct(model) || game.mode !== "free") return;
  try {
    const answer = await api.hint(game.id, model.move_number);
    if (state.game.id !== game.id) return;
    state.game = { ...state.game, hints: answer.hints, ranked: false };
    state.hint = { game: game.id, moveNumber: answer.move_number, move: answer.move };
    render();
    closeTools();
    announce($("hint-line").textContent);
  } catch {
    announce(t().hintFailed);
  }
}

/** A phone's tools menu (a wide screen shows the tools as a panel and hides its button). */
function openTools() {
  $("tools-button").setAttribute("aria-expanded", "true");
  const first = [...$("tools-panel").querySelectorAll("button, select")].find((node) => node.checkVisibility());
  if (first) first.focus();
}

/** Close the tools menu, if open; the focus goes back to its button unless it has gone elsewhere. */
function closeTools({ keepFocus = false } = {}) {
  const button = $("tools-button");
  if (button.getAttribute("aria-expanded") !== "true") return;
  button.setAttribute("aria-expanded", "false");
  if (!keepFocus) button.focus();
}

function setUpTools() {
  const tools = $("table-tools");
  $("tools-button").addEventListener("click", (event) => {
    if (event.currentTarget.getAttribute("aria-expanded") === "true") closeTools();
    else openTools();
  });
  tools.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || $("tools-button").getAttribute("aria-expanded") !== "true") return;
    // Escape closes the menu only: it does not also skip the bots' moves.
    event.preventDefault();
    event.stopPropagation();
    closeTools();
  });
  // Tabbing out of the menu, or a tap elsewhere, closes it and leaves the focus where it went.
  tools.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !tools.contains(event.relatedTarget)) closeTools({ keepFocus: true });
  });
  document.addEventListener("pointerdown", (event) => {
    if (!tools.contains(event.target)) closeTools({ keepFocus: true });
  });
}

/** The table's sound button says whether sound is on (the settings' box says the same). */
export function showSound() {
  $("sound-toggle").setAttribute("aria-pressed", String(soundOn()));
}

/** A prompt is a sentence, or [question, detail]: a phone too short for both shows the question only. */
function showPrompt(element, text) {
  if (!Array.isArray(text)) {
    element.textContent = text;
    return;
  }
  const detail = document.createElement("span");
  detail.className = "prompt-detail";
  detail.textContent = text[1];
  element.replaceChildren(text[0], " ", detail);
}

function renderHand(model, playingNow, picking) {
  const words = t();
  const hand = $("hand");
  const cards = state.rules.sortHand(model.hand, model);
  hand.dataset.mode = picking ? "pick" : playingNow ? "play" : "wait";
  const selectable = (code) => (picking ? picking.may(code) : playingNow && model.legal.includes(code));
  const existing = new Map([...hand.children].map((node) => [node.dataset.card, node]));
  for (const [code, node] of existing) if (!cards.includes(code)) node.remove();
  // Insert new cards in order without moving the kept ones (moving a node drops its focus).
  let previous = null;
  for (const code of cards) {
    let button = existing.get(code);
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "hand-card card";
      button.dataset.card = code;
      if (previous) previous.after(button);
      else hand.prepend(button);
    } else if (button.previousElementSibling !== previous) {
      // The order changed (trumps named while the hand is shown): move it, keeping its focus.
      const hadFocus = document.activeElement === button;
      if (previous) previous.after(button);
      else hand.prepend(button);
      if (hadFocus) button.focus();
    }
    if (button.dataset.lang !== currentLanguage()) {
      // The corner letters are words of the language (R, D, V or K, Q, J).
      button.replaceChildren(cardFace(code));
      button.dataset.lang = currentLanguage();
    }
    const playable = selectable(code);
    const trump = state.rules.isTrump(code, model);
    button.classList.toggle("is-playable", playable);
    // Picking (an écart, a poignée): each card is a toggle; the cards that may not be picked are veiled.
    if (picking) button.setAttribute("aria-pressed", String(picking.chosen.has(code)));
    else button.removeAttribute("aria-pressed");
    button.classList.toggle("is-chosen", Boolean(picking && picking.chosen.has(code)));
    button.classList.toggle("is-trump", trump);
    button.setAttribute("aria-disabled", playable ? "false" : "true");
    button.setAttribute("aria-label", trump ? words.trumpCard(cardName(code)) : cardName(code));
    if (trump) button.dataset.mark = words.trumpMark;
    previous = button;
  }
  const focusInHand = hand.contains(document.activeElement);
  if (!cards.includes(state.roving) || ((playingNow || picking) && !focusInHand && !selectable(state.roving))) {
    state.roving = cards.find(selectable) ?? cards[0] ?? null;
  }
  for (const button of hand.children) button.tabIndex = button.dataset.card === state.roving ? 0 : -1;
}

/** Draw the table from the model; ``arriving`` names the card that just left a hand, to fly it in. */
export function render(arriving = null) {
  const model = state.model;
  if (!model) return;
  if (state.rules.renderTable) {
    // The game draws its own table (coucou): the felt's seats, trick and chalk are not its.
    state.rules.renderTable(model);
    renderFacts(model);
    renderActions(model);
    markTable(model);
    showSpeed();
    holdFocus();
    return;
  }
  const seats = seatsOf(model);
  for (const element of $("felt").querySelectorAll(".seat")) element.hidden = !seats.includes(element.id.slice(5));
  for (const seat of seats) renderSeat(seat, model);
  state.rules.renderCentre($("proposal"), model);
  renderTrick(model, arriving);
  renderChalk(model);
  renderFacts(model);
  renderActions(model);
  markTable(model);
  showSpeed();
  holdFocus();
}

function markTable(model) {
  $("felt").dataset.phase = model.phase;
  $("view-table").dataset.game = state.game.id;
  // Read by the stylesheet and the browser tests: what the table is waiting for.
  const turn = model.phase === "over" ? "over" : southMayAct(model) ? state.rules.turn(model) : "wait";
  $("view-table").dataset.turn = turn;
}

// ---------------------------------------------------------------- focus

function settleFocus() {
  const model = state.model;
  if (!southMayAct(model)) return;
  const active = document.activeElement;
  const lost =
    !active ||
    active === document.body ||
    active === $("main") ||
    active === $("table-title") ||
    !active.isConnected ||
    active.closest("dialog:not([open])") ||
    $("action-bar").contains(active);
  if (!lost || $("table-title").closest("[hidden]")) return;
  const controls = state.rules.focusControls(model);
  if (controls.length) {
    if (!controls.includes(active)) controls[0].focus();
  } else {
    // The first card South may play (or pick); the focus moves the hand's tab stop with it.
    const cards = [...$("hand").children];
    const card = cards.find((node) => node.getAttribute("aria-disabled") === "false") ?? cards[0];
    if (card) card.focus();
  }
}

/**
 * Focus that fell out of the table while it is shown (a bid button hidden after the bid, a played
 * card gone from the hand) goes back to the hand, so that a keyboard or a screen reader keeps its
 * place during the other players' moves; settleFocus moves it on when South's turn comes.
 */
function holdFocus() {
  if ($("view-table").hidden || document.querySelector("dialog[open]")) return;
  const active = document.activeElement;
  const fell =
    !active ||
    active === document.body ||
    !active.isConnected ||
    ($("view-table").contains(active) && !active.checkVisibility());
  if (!fell) return;
  const hand = $("hand");
  const card = [...hand.children].find((node) => node.dataset.card === state.roving);
  // A game without a hand on screen (coucou) places the focus itself.
  if (card || hand.checkVisibility()) (card ?? hand).focus();
}

function announceTurn() {
  const model = state.model;
  if (!southMayAct(model)) return;
  announce(state.rules.yourTurn(model));
}

// ---------------------------------------------------------------- events → model

/** Retries, in milliseconds after the first ask, when the rank of a finished ranked game is still pending. */
const PLACE_RETRY_DELAYS = [500, 1500];

/**
 * The final move is answered before the server's replay check that enters the leaderboard, so its
 * answer says `leaderboard_pending`: ask for the game again (the server then checks it, or waits for
 * its check) and keep the answer that carries the rank.
 */
async function settleLeaderboardPlace(game) {
  for (const delay of [0, ...PLACE_RETRY_DELAYS]) {
    await sleep(delay);
    try {
      const { events, ...shown } = await api.game(game.id);
      if (!shown.leaderboard_pending) return shown;
    } catch {
      // A refused or lost request: try again, then end the game without a rank rather than never.
    }
  }
  return game;
}

async function play(events, finalView) {
  const generation = state.generation;
  const stale = () => generation !== state.generation;
  // Asked now so that the answer comes back while the last trick is animated.
  const pendingGame = state.game;
  const settledGame =
    finalView.phase === "over" && pendingGame.ranked && pendingGame.leaderboard_pending
      ? settleLeaderboardPlace(pendingGame)
      : null;
  state.busy = true;
  endHurry();
  if (!state.toldSkip && pace().card > 0 && events.length > 1) {
    state.toldSkip = true;
    announce(t().skipHint);
  }
  const model = state.model;
  model.legal = [];
  render();
  for (const [index, event] of events.entries()) {
    const effect = state.rules.applyEvent(model, event, finalView);
    if (effect.dealEnd) {
      // Nobody is to play while the summary is read; the deal's last trick stays on the table behind it.
      model.to_move = null;
      render();
      playSound("chalk");
      // The game's last deal (a side's lines done, or a tournament's game of one deal): its button leads to the result.
      await showDealSummary(effect.dealEnd, model, events[index + 1]?.type === "game_over");
      if (stale()) return;
      if (state.rules.dealEnded) state.rules.dealEnded(model, effect.dealEnd);
      else model.lines = { ...effect.dealEnd.lines };
      model.deal.trick = { ...model.deal.trick, cards: [] };
      render();
      continue;
    }
    if (effect.gameOver) {
      render();
      continue;
    }
    if (effect.trickDone !== undefined) {
      markTrickWinner(effect.trickDone);
      await pause(effect.pause);
      if (stale()) return;
      if (events[index + 1]?.type === "deal_end") continue;
      await gatherTrick(effect.trickDone);
      if (stale()) return;
      model.deal.trick = { leader: effect.trickDone ?? model.deal.trick.leader, cards: [] };
      model.to_move = effect.trickDone ?? model.to_move;
      render();
      continue;
    }
    render(effect.arriving);
    await pause(effect.pause);
    if (stale()) return;
  }
  if (settledGame) {
    const settled = await settledGame;
    if (stale()) return;
    state.game = settled;
  }
  state.droppedCard = null;
  state.model = clone(finalView);
  state.busy = false;
  endHurry();
  if (state.model.phase === "over" && !state.remote) rememberGame(gameOf(state.game), null);
  render();
  if (state.model.phase === "over") showEndOfGame();
  else {
    announceTurn();
    settleFocus();
  }
}

/** The finished trick slides off toward its winner before the table is cleared. */
async function gatherTrick(winner) {
  const fly = pace().fly;
  if (!winner || fly === 0 || state.hurry) return;
  const trick = $("trick");
  trick.classList.add(`gather-${winner}`);
  await pause(fly);
  trick.classList.remove(`gather-${winner}`);
}

function markTrickWinner(winner) {
  for (const slot of $("trick").children) slot.classList.toggle("is-winner", slot.dataset.seat === winner);
}

// ---------------------------------------------------------------- dialogs

function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
}

function showDealSummary(entry, model, lastDeal) {
  const words = t();
  const dialog = $("deal-dialog");
  $("deal-dialog-title").textContent = words.dealTitle(entry.number);
  const body = $("deal-dialog-body");
  body.replaceChildren();
  const summary = state.rules.dealSummary(entry);
  const outcome = document.createElement("p");
  outcome.className = "outcome";
  outcome.textContent = summary.outcome;
  body.append(outcome);
  for (const text of summary.details) {
    const detail = document.createElement("p");
    detail.textContent = text;
    body.append(detail);
  }
  if (state.rules.dealSheet) {
    const sheet = state.rules.dealSheet(entry, model);
    body.append(...sheet.nodes);
    body.append(...dealTricks(model));
    announce(`${$("deal-dialog-title").textContent}. ${outcome.textContent} ${sheet.said}`);
    $("deal-dialog-close").textContent = sheet.last ? words.seeResult : words.nextDeal;
    const shown = openDialog(dialog);
    $("deal-dialog-close").focus();
    return shown;
  }
  const table = document.createElement("table");
  table.className = "summary-table";
  const head = table.createTHead().insertRow();
  for (const label of [words.teamHeader, words.pointsHeader, words.linesHeader, words.movedHeader]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    head.append(th);
  }
  const tbody = table.createTBody();
  for (const team of ["NS", "WE"]) {
    const row = tbody.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = words.team[team];
    th.title = words.teamLong[team];
    row.append(th);
    const cells = [
      entry.points ? String(entry.points[team]) : "—",
      String(entry.lines[team]),
      words.linesMoved(entry.lines[team] - model.lines[team]),
    ];
    for (const value of cells) row.insertCell().textContent = value;
  }
  body.append(table, ...dealTricks(model));
  announce(`${$("deal-dialog-title").textContent}. ${outcome.textContent} ${words.chalkSummary(words.linesLeft(entry.lines.NS), words.linesLeft(entry.lines.WE))}`);
  $("deal-dialog-close").textContent = lastDeal ? words.seeResult : words.nextDeal;
  const closed = openDialog(dialog);
  $("deal-dialog-close").focus();
  return closed;
}

function showEndOfGame() {
  const words = t();
  const game = state.game;
  const model = state.model;
  const won = model.winner === "NS";
  const own = state.rules.endOfGame ? state.rules.endOfGame(model, game) : null;
  // No winner at the end: a tournament's game of one deal (docs/clubs.md), over once its deal is played.
  const ended = model.winner === null ? words.endDealPlayed : words.endLost;
  $("end-dialog-title").textContent = own ? own.title : won ? words.endWon : ended;
  const body = $("end-dialog-body");
  body.replaceChildren();
  const deals = model.deal_log ? model.deal_log.length || model.deal.number : 0;
  const lines = own
    ? [...own.lines]
    : [words.endScore(model.score), words.endDeals(deals), words.endLines(model.lines.NS, model.lines.WE)];
  if (game.leaderboard) lines.push(words.endRank(game.leaderboard.board, game.leaderboard.rank));
  else if (game.hints) lines.push(words.endHinted(game.hints));
  else lines.push(game.leaderboard_pending ? words.endRankPending : words.endNotRanked);
  for (const text of lines) {
    const paragraph = document.createElement("p");
    paragraph.textContent = text;
    body.append(paragraph);
  }
  const remote = state.remote ? state.remote.endOfGame(body) : null;
  $("end-new-game").hidden = $("end-leaderboard").hidden = Boolean(state.remote);
  if (gameInfo(gameOf(game)).review && !remote) {
    const review = document.createElement("a");
    review.className = "button";
    review.id = "end-review";
    review.href = `#/review/${encodeURIComponent(game.id)}`;
    review.textContent = words.reviewGame;
    const line = document.createElement("p");
    line.append(review);
    body.append(line);
  }
  if (game.leaderboard) body.append(nameForm("end-name"));
  if (game.mode === "daily" && game.day) {
    const heading = document.createElement("h3");
    heading.textContent = words.shareTitle;
    const share = document.createElement("p");
    share.className = "share-text";
    share.id = "share-text";
    share.textContent = own
      ? own.share
      : words.shareText(
          gameName(gameOf(game)),
          formatDay(game.day),
          won,
          model.score,
          deals,
          model.lines.NS,
          model.lines.WE,
        );
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "button small";
    copy.textContent = words.copyShare;
    const status = document.createElement("p");
    status.setAttribute("role", "status");
    status.className = "form-status";
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(share.textContent);
        status.textContent = words.copied;
      } catch {
        status.textContent = words.copyFailed;
      }
    });
    const buttons = document.createElement("div");
    buttons.className = "button-row";
    // The phone's share sheet where the browser has one (navigator.share), the copy everywhere.
    if (navigator.share) {
      const shareButton = document.createElement("button");
      shareButton.type = "button";
      shareButton.className = "button small";
      shareButton.textContent = words.shareButton;
      shareButton.addEventListener("click", () => {
        navigator.share({ text: share.textContent }).catch(() => {
          // Closing the share sheet rejects: nothing was shared, and the copy button is still there.
        });
      });
      buttons.append(shareButton);
    }
    buttons.append(copy);
    body.append(heading, share, buttons, status);
  }
  openDialog($("end-dialog"));
  (remote ?? $("end-new-game")).focus();
  if (state.onGameOver) state.onGameOver(game);
}

/**
 * A form to set the player's name, shown wherever an entry with the name is seen (the end of a ranked
 * game, the player's nameless row on the leaderboard). ``status`` says the outcome (the form's own line
 * unless given); ``saved`` runs after the name is stored.
 */
export function nameForm(id, { status = null, saved = null } = {}) {
  const words = t();
  const form = document.createElement("form");
  form.className = "name-form";
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = words.nameLegend;
  const row = document.createElement("div");
  row.className = "name-row";
  const input = document.createElement("input");
  input.type = "text";
  input.id = id;
  input.maxLength = 24;
  input.autocomplete = "nickname";
  const save = document.createElement("button");
  save.type = "submit";
  save.className = "button small";
  save.textContent = words.saveName;
  row.append(input, save);
  form.append(label, row);
  if (!status) {
    status = document.createElement("p");
    status.className = "form-status";
    status.setAttribute("role", "status");
    form.append(status);
  }
  api.player().then(
    (player) => {
      if (player.name && !input.value) input.value = player.name;
    },
    () => {},
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.setPlayerName(input.value.trim());
      status.textContent = words.nameSaved;
      if (saved) saved();
    } catch (error) {
      status.textContent = error instanceof ApiError ? refusalText(error) : words.errorGeneric;
    }
  });
  return form;
}

/** The tricks of the deal the table shows (a game without tricks, as coucou, has none). */
function dealTricksShown() {
  const deal = state.model && state.model.deal;
  return deal && deal.tricks ? deal.tricks : [];
}

/** A trick's cards in the order they were played, each with its seat; the winner's is marked. */
function trickCards(trick) {
  const list = document.createElement("ul");
  list.className = "review-cards";
  for (const entry of trick.cards) {
    const item = document.createElement("li");
    if (entry.seat === trick.winner) item.className = "is-winner";
    const label = document.createElement("span");
    label.className = "review-seat";
    label.textContent = seatName(entry.seat);
    item.append(tableCard(entry.card), label);
    list.append(item);
  }
  return list;
}

/** Who led a trick and who won it, in one sentence. */
function trickSentence(trick) {
  const words = t();
  return words.trickLedWon(seatName(trick.leader), trick.winner ? seatName(trick.winner) : null);
}

/** The deal's tricks one by one, for its summary: only cards that were played, so nothing hidden. */
function dealTricks(model) {
  const words = t();
  const tricks = model.deal && model.deal.tricks ? model.deal.tricks : [];
  if (!tricks.length) return [];
  const details = document.createElement("details");
  details.className = "deal-tricks";
  // A deal of a few tricks is shown open; a long one (tarot) is opened on demand.
  details.open = tricks.length <= 6;
  const summary = document.createElement("summary");
  summary.textContent = words.dealTricksTitle(tricks.length);
  const list = document.createElement("ol");
  list.className = "trick-list";
  tricks.forEach((trick, index) => {
    const item = document.createElement("li");
    const line = document.createElement("p");
    line.className = "trick-line";
    line.textContent = `${words.trickNumber(index + 1)} ${trickSentence(trick)}`;
    item.append(line, trickCards(trick));
    list.append(item);
  });
  details.append(summary, list);
  return [details];
}

/** Show the trick at ``index`` of the deal in the trick dialog, with buttons to the others. */
function renderReviewedTrick(index) {
  const words = t();
  const tricks = dealTricksShown();
  const body = $("trick-dialog-body");
  body.replaceChildren();
  $("trick-previous").hidden = $("trick-next").hidden = tricks.length < 2;
  if (!tricks.length) {
    $("trick-dialog-title").textContent = words.tricksTitle;
    const empty = document.createElement("p");
    empty.textContent = words.lastTrickEmpty;
    body.append(empty);
    return;
  }
  state.reviewed = Math.min(Math.max(index, 0), tricks.length - 1);
  const trick = tricks[state.reviewed];
  $("trick-dialog-title").textContent = words.trickOf(state.reviewed + 1, tricks.length);
  const sentence = document.createElement("p");
  sentence.textContent = trickSentence(trick);
  body.append(trickCards(trick), sentence);
  // At either end the button stays focusable (a disabled one would drop the focus) but says it leads nowhere.
  $("trick-previous").setAttribute("aria-disabled", String(state.reviewed === 0));
  $("trick-next").setAttribute("aria-disabled", String(state.reviewed === tricks.length - 1));
}

function showTricks() {
  renderReviewedTrick(dealTricksShown().length - 1);
  openDialog($("trick-dialog"));
  $("trick-dialog-close").focus();
}

function stepReviewedTrick(step) {
  const target = state.reviewed + step;
  if (target < 0 || target >= dealTricksShown().length) return;
  renderReviewedTrick(target);
}

// ---------------------------------------------------------------- talking to the server

function showError(error) {
  const words = t();
  const status = error instanceof ApiError ? error.status : 0;
  const message = status === 404 ? words.errorLost : status === 429 ? words.errorBusy : words.errorGeneric;
  $("prompt").textContent = message;
  announce(message);
}

async function send(move) {
  const model = state.model;
  const allowed = state.rules.allows ? state.rules.allows(model, move) : model.legal.includes(move);
  if (!southMayAct(model) || !allowed) return false;
  state.busy = true;
  // Counted for the browser tests, which must know a move left before they wait for the next turn.
  const tableView = $("view-table");
  tableView.dataset.sent = String(Number(tableView.dataset.sent ?? 0) + 1);
  render();
  const generation = state.generation;
  if (state.remote) return sendRemote(move, model.move_number, generation);
  let answer;
  try {
    answer = await api.move(state.game.id, move, model.move_number);
  } catch (error) {
    if (generation !== state.generation) return false;
    state.busy = false;
    state.droppedCard = null;
    if (error instanceof ApiError && error.status === 409) {
      // Stale or refused: the server's view is the truth, show it again.
      await load(state.game.id);
    } else {
      render();
      showError(error);
    }
    return false;
  }
  if (generation !== state.generation) return false;
  const { events, ...game } = answer;
  state.game = game;
  await play(events, answer.view);
  return true;
}

/**
 * A move at a friends' table: js/friends/ sends it (socket or HTTP) and its answer comes back, with the
 * other seats' moves, through advance(); the table stays busy until then.
 */
async function sendRemote(move, moveNumber, generation) {
  try {
    await state.remote.move(move, moveNumber);
    return true;
  } catch (error) {
    if (generation !== state.generation) return false;
    // A move whose socket dropped may have reached the server: the table waits for the server's view (shown
    // through advance() if it is newer) before it gives the turn back, never on the view the move left from.
    await state.remote.resync();
    if (generation !== state.generation) return false;
    if (state.model.move_number !== moveNumber) return true; // It had: its answer is shown.
    state.busy = false;
    state.droppedCard = null;
    render();
    showError(error);
    settleFocus();
    return false;
  }
}

/** Animate the events of one more answer of the game shown (a friends' table: the other seats' moves). */
export async function advance(answer) {
  const { events, ...game } = answer;
  state.game = game;
  await play(events, answer.view);
}

/** Put the game's own buttons in the action bar, replacing another game's. */
function mountRules(rules) {
  if (state.rules === rules) return;
  state.rules = rules;
  $("view-table").dataset.variant = rules.id;
  const box = $("game-controls");
  box.replaceChildren();
  rules.mountControls(box, send);
}

/** Show a game answer: animate its events from what the table shows, or just draw its view. */
export async function open(answer, { fresh = false } = {}) {
  const generation = state.generation;
  const own = await gameModule(gameOf(answer));
  if (generation !== state.generation) return;
  // A friends' table names the seats by who holds them (js/friends/).
  const rules = state.remote ? state.remote.rules(own) : own;
  mountRules(rules);
  const { events, ...game } = answer;
  const sameGame = state.game && state.game.id === game.id;
  state.game = game;
  if (!state.remote) rememberGame(gameOf(game), game.view.phase === "over" ? null : game.id);
  state.chalkShown = null;
  if (!sameGame) $("announcer").replaceChildren();
  if (fresh && events.length) {
    state.model = rules.rewound(game.view);
    await play(events, game.view);
    return;
  }
  state.model = clone(game.view);
  state.busy = false;
  render();
  if (state.model.phase === "over") showEndOfGame();
  else {
    announceTurn();
    settleFocus();
  }
}

/** Show the stored game ``id`` of ``gameId``; false (and an offer of a new game) if it cannot be had. */
export async function load(id, gameId = state.game ? gameOf(state.game) : DEFAULT_GAME) {
  const generation = ++state.generation;
  try {
    const answer = await api.game(id);
    if (generation === state.generation) await open(answer);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) rememberGame(gameId, null);
    showError(error);
    offerNewGame();
    return false;
  }
}

/** Empty the table of the game it showed (another kind of game is asked for). */
export function clear() {
  state.generation += 1;
  state.game = null;
  state.model = null;
  state.busy = false;
  closeDialogs();
  for (const element of $("felt").querySelectorAll(".seat-extra")) element.remove();
  for (const seat of SEATS) {
    $(`seat-${seat}`).replaceChildren();
    $(`seat-${seat}`).hidden = false;
  }
  state.rules = null;
  for (const id of ["proposal", "trick", "chalk-teams", "deal-facts", "hand", "announcer", "game-controls"]) {
    $(id).replaceChildren();
  }
  $("chalk-hole").hidden = true;
  delete $("view-table").dataset.variant;
  delete $("view-table").dataset.turn;
  delete $("view-table").dataset.game;
}

/** With no game to show, the table offers to start one. */
export function offerNewGame() {
  if (state.model) return;
  $("table-new-game-row").hidden = false;
  $("view-table").dataset.turn = "none";
}

export async function start(gameId, mode, ranked = true, options = null, day = null) {
  const generation = ++state.generation;
  closeDialogs();
  state.starting = gameId;
  let answer;
  try {
    answer = await api.newGame(mode, ranked, gameId === DEFAULT_GAME ? null : apiGame(gameId), options, day);
    await gameModule(gameOf(answer));
  } finally {
    state.starting = null;
  }
  if (generation !== state.generation) return;
  state.game = null;
  state.model = null;
  await open(answer, { fresh: true });
}

export function closeDialogs() {
  for (const id of ["deal-dialog", "end-dialog", "trick-dialog"]) if ($(id).open) $(id).close();
  closeTools({ keepFocus: true });
}

export function setGameOverListener(listener) {
  state.onGameOver = listener;
}

// ---------------------------------------------------------------- input

function playCard(code) {
  const model = state.model;
  const picking = southMayAct(model) && state.rules.picking ? state.rules.picking(model) : null;
  if (picking) {
    if (!picking.may(code)) {
      refuse(code);
      return;
    }
    state.rules.pick(code, model);
    render();
    return;
  }
  if (!southMayAct(model) || !state.rules.playsCards(model)) return;
  if (!model.legal.includes(code)) {
    refuse(code);
    return;
  }
  send(code);
}

function refuse(code) {
  const button = handButton(code);
  if (button) {
    button.classList.remove("is-refused");
    // Restart the shake animation: reading offsetWidth forces a style flush.
    void button.offsetWidth;
    button.classList.add("is-refused");
  }
  if (southMayAct(state.model) && state.rules.playsCards(state.model)) {
    $("prompt").textContent = t().notPlayable;
    announce(t().notPlayable);
  }
}

function handButton(code) {
  return [...$("hand").children].find((node) => node.dataset.card === code) ?? null;
}

function moveRoving(step) {
  const buttons = [...$("hand").children];
  if (!buttons.length) return;
  const index = Math.max(0, buttons.findIndex((node) => node.dataset.card === state.roving));
  const target =
    step === "first" ? 0 : step === "last" ? buttons.length - 1 : (index + step + buttons.length) % buttons.length;
  state.roving = buttons[target].dataset.card;
  for (const button of buttons) button.tabIndex = button.dataset.card === state.roving ? 0 : -1;
  buttons[target].focus();
}

function onHandKey(event) {
  const button = event.target.closest(".hand-card");
  if (!button) return;
  const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
  if (event.key in moves) {
    event.preventDefault();
    moveRoving(moves[event.key]);
  } else if (event.key === "Enter" || event.key === " ") {
    // Handled here rather than through the button's synthetic click, which mouse and touch use.
    event.preventDefault();
    playCard(button.dataset.card);
  }
}

const drag = { pointerId: null, button: null, startX: 0, startY: 0, moved: false, suppressClick: false };

function overDropZone(x, y) {
  const zone = $("centre").getBoundingClientRect();
  return x >= zone.left && x <= zone.right && y >= zone.top && y <= zone.bottom;
}

function onPointerDown(event) {
  const button = event.target.closest(".hand-card");
  if (!button || (event.pointerType === "mouse" && event.button !== 0)) return;
  state.roving = button.dataset.card;
  // A picked card is toggled by its click; only a card to play is dragged.
  if (button.getAttribute("aria-disabled") === "true" || $("hand").dataset.mode === "pick") return;
  drag.pointerId = event.pointerId;
  drag.button = button;
  drag.startX = event.clientX;
  drag.startY = event.clientY;
  drag.moved = false;
}

function onPointerMove(event) {
  if (event.pointerId !== drag.pointerId || !drag.button) return;
  const dx = event.clientX - drag.startX;
  const dy = event.clientY - drag.startY;
  if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
  if (!drag.moved) {
    drag.moved = true;
    drag.button.setPointerCapture(event.pointerId);
    drag.button.classList.add("is-dragging");
    $("felt").classList.add("is-dropping");
  }
  drag.button.style.transform = `translate(${dx}px, ${dy}px)`;
  $("centre").classList.toggle("is-drop-target", overDropZone(event.clientX, event.clientY));
}

function endDrag(event, cancelled) {
  if (event.pointerId !== drag.pointerId || !drag.button) return;
  const button = drag.button;
  const wasDrag = drag.moved;
  drag.pointerId = null;
  drag.button = null;
  if (!wasDrag) return;
  drag.suppressClick = true;
  setTimeout(() => {
    drag.suppressClick = false;
  }, 0);
  $("felt").classList.remove("is-dropping");
  $("centre").classList.remove("is-drop-target");
  button.classList.remove("is-dragging");
  button.style.transform = "";
  if (!cancelled && overDropZone(event.clientX, event.clientY)) {
    state.droppedCard = button.dataset.card;
    playCard(button.dataset.card);
  }
}

function onHandClick(event) {
  const button = event.target.closest(".hand-card");
  if (!button || drag.suppressClick) return;
  if (button.getAttribute("aria-disabled") === "true") {
    refuse(button.dataset.card);
    return;
  }
  playCard(button.dataset.card);
}

function onHandFocus(event) {
  const button = event.target.closest(".hand-card");
  if (!button) return;
  state.roving = button.dataset.card;
  for (const node of $("hand").children) node.tabIndex = node === button ? 0 : -1;
}

export function setUpTable() {
  const hand = $("hand");
  hand.addEventListener("keydown", onHandKey);
  hand.addEventListener("click", onHandClick);
  hand.addEventListener("focusin", onHandFocus);
  hand.addEventListener("pointerdown", onPointerDown);
  hand.addEventListener("pointermove", onPointerMove);
  hand.addEventListener("pointerup", (event) => endDrag(event, false));
  hand.addEventListener("pointercancel", (event) => endDrag(event, true));
  $("last-trick-button").addEventListener("click", showTricks);
  $("hint-button").addEventListener("click", askHint);
  setUpTools();
  $("sound-toggle").addEventListener("click", () => {
    setSound(!soundOn());
    showSound();
  });
  showSound();
  $("trick-previous").addEventListener("click", () => stepReviewedTrick(-1));
  $("trick-next").addEventListener("click", () => stepReviewedTrick(1));
  $("deal-dialog-close").addEventListener("click", () => $("deal-dialog").close());
  $("trick-dialog-close").addEventListener("click", () => $("trick-dialog").close());
  $("view-table").addEventListener("pointerdown", (event) => {
    if (!event.target.closest(CONTROLS)) hurry();
  });
  // A tap on the table (to skip the animation, or by chance) leaves the focus where it was, in the hand
  // or on a button, rather than on the page.
  $("view-table").addEventListener("mousedown", (event) => {
    if (!event.target.closest(`.hand-card, .sidebar, ${CONTROLS}`)) event.preventDefault();
  });
  document.addEventListener("keydown", onSkipKey);
  $("table-speed").addEventListener("change", (event) => setSpeed(event.target.value));
}

/** What a tap or Space acts on by itself, rather than skipping the animation (a hand card is not: it is idle then). */
const CONTROLS = "button:not(.hand-card), a, select, input, label, summary, textarea";

function onSkipKey(event) {
  if ($("view-table").hidden || document.querySelector("dialog[open]")) return;
  if (event.key === "Escape" || (event.key === " " && !event.target.closest(CONTROLS))) {
    if (!state.busy) return;
    event.preventDefault();
    hurry();
  }
}

/** The table's own speed menu shows the speed chosen here or in the settings ("instant", for tests, as fast). */
function showSpeed() {
  $("table-speed").value = speed() === "instant" ? "fast" : speed();
}
