// The puzzles (#/puzzles, #/puzzles/<game>; issue 34, docs/puzzles.md, docs/api.md "Puzzles"): loaded with import()
// by js/main.js on the first visit. The question is drawn on the shared table (js/table.js) as a friends' table is:
// through ``state.remote``, with the puzzle's seat turned round to South (js/friends/seats.js), so its hand, the
// tricks so far, the trump and whose turn are shown, and a card is chosen by mouse, touch or keyboard, as at a game.
// The card chosen is the answer (POST /api/puzzles/{id}/answer); the verdict, every legal card's share and value
// (a bar chart beside its table), a layout where a wrong card fails, and the rating after are drawn above the table.
// ``context`` is main's: { openTable }.
import { ApiError, request } from "./api.js";
import { addWords, cardName, currentLanguage, formatDay, formatNumber, t } from "./i18n.js";
import { tableCard } from "./cards.js";
import { el, table as grid } from "./clubs/dom.js";
import { bars, plot } from "./charts.js";
import { GAMES, apiGame, gameName } from "./games/index.js";
import { seatOrder, turning } from "./friends/seats.js";
import { announce, seatName, state } from "./table/shared.js";
import puzzleWords from "./puzzles-words.js";

addWords(puzzleWords);

/** The puzzles' look (css/puzzles.css), asked for as this module loads. */
const styled = new Promise((resolve) => {
  const link = el("link", { rel: "stylesheet", href: "/css/puzzles.css" });
  link.addEventListener("load", resolve);
  link.addEventListener("error", resolve); // Unstyled rather than never drawn.
  document.head.append(link);
});

const $ = (id) => document.getElementById(id);
const words = () => t().puzzles;

const here = {
  context: null,
  game: null, // the page's game shown
  puzzle: null, // the question shown (its seats as the server names them)
  turn: null, // js/friends/seats.js turning of the question shown
  daily: null, // the day of the puzzle of the day shown, else null
  rating: null, // the player's puzzle rating before the answer
};

/** A puzzle rating as the page says it: rounded, "provisoire" while it is. */
const rating = (value) =>
  value.provisional ? `${formatNumber(Math.round(value.rating))} (${words().provisional})` : formatNumber(Math.round(value.rating));

function say(text, role = "status") {
  $("puzzle-status").replaceChildren(el("p", { role }, text));
}

/** The menu, the status line, the answer and the history, drawn once per visit. */
function frame(game) {
  const links = GAMES.map((info) =>
    el(
      "li",
      {},
      el("a", { href: `#/puzzles/${info.id}`, ...(info.id === game ? { "aria-current": "page" } : {}) }, gameName(info.id)),
    ),
  );
  const daily = el("button", { type: "button", className: "button", id: "puzzle-daily" }, words().daily);
  daily.addEventListener("click", () => ask("daily"));
  $("puzzles-root").replaceChildren(
    el("nav", { className: "puzzle-games", "aria-label": words().games }, el("ul", {}, ...links)),
    el("div", { className: "button-row" }, daily),
    el("details", { id: "puzzle-history", className: "puzzle-history" }),
    el("p", { id: "puzzle-kind", className: "puzzle-kind" }),
    el("div", { id: "puzzle-status" }),
    el("section", { id: "puzzle-answer", className: "puzzle-answer", hidden: true, "aria-labelledby": "puzzle-verdict" }),
  );
}

/** Show the puzzles of ``game``: the next one near the player's rating, at once. */
export async function showPuzzles(game, context) {
  await styled;
  here.context = context;
  here.game = game;
  frame(game);
  await Promise.all([ask("next", { focusHand: false }), showHistory()]);
}

/** Leave the puzzles (another route): the table is the player's own again. */
export async function leave() {
  if (state.remote !== remote) return;
  state.remote = null;
  here.puzzle = null;
  (await here.context.openTable()).clear();
}

/** Ask the next puzzle or the puzzle of the day, and put it on the table. */
async function ask(kind, { focusHand = true } = {}) {
  const game = here.game;
  const name = gameName(game);
  $("puzzle-answer").hidden = true;
  $("puzzle-kind").textContent = "";
  say(words().loading);
  let answer;
  try {
    answer = await request("GET", `/api/puzzles/${kind}?game=${encodeURIComponent(apiGame(game))}`);
  } catch (error) {
    if (here.game !== game) return;
    await hideTable();
    const code = error instanceof ApiError ? error.code : null;
    say(code === "no_puzzles" ? words().noPuzzles(name) : code === "no_puzzle" ? words().noneLeft(name) : words().error);
    return;
  }
  if (here.game !== game) return;
  if (kind === "daily" && answer.answered) {
    await hideTable();
    say(words().dailyDone(formatDay(answer.day)));
    $("puzzle-daily").focus();
    return;
  }
  here.daily = kind === "daily" ? answer.day : null;
  here.rating = answer.player_rating ?? null;
  await showQuestion(answer.puzzle, focusHand);
}

async function hideTable() {
  await leave();
  $("view-table").hidden = true;
}

/** The question on the table, from the puzzle's seat turned to South. */
async function showQuestion(puzzle, focusHand) {
  const table = await here.context.openTable();
  table.clear();
  here.puzzle = puzzle;
  here.turn = turning(seatOrder(puzzle.view), puzzle.seat);
  state.remote = remote;
  const shown = here.turn.answer({ id: `puzzle:${puzzle.id}`, game: puzzle.game, mode: "puzzle", view: puzzle.view });
  $("puzzle-status").replaceChildren();
  $("puzzle-kind").textContent = here.daily ? words().dailyOf(formatDay(here.daily)) : words().rated(rating(puzzle.rating));
  $("table-title").textContent = words().tableTitle(gameName(here.game));
  $("view-table").hidden = false;
  await table.open({ ...shown, events: [] });
  // As at South's turn: the first card he may play takes the focus (the live region asks the question).
  const card = $("hand").querySelector('[aria-disabled="false"]');
  if (card && focusHand) card.focus();
}

// ---------------------------------------------------------------- what the shared table asks (state.remote)

const wrapped = new WeakMap();

/** The game's table module, asking the puzzle's question in place of its own. */
function wrapRules(own) {
  const rules = Object.create(own);
  rules.prompt = () => words().question;
  rules.yourTurn = () => words().question;
  // Only a card is an answer (the view may list a call beside them).
  rules.allows = (model, move) => model.hand.includes(move) && model.legal.includes(move);
  return rules;
}

const remote = {
  async move(card) {
    const puzzle = here.puzzle;
    let answer;
    try {
      answer = await request("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, { card });
    } catch (error) {
      // A refusal is final (answered already, a day that is over); a lost request gives the turn back.
      if (!(error instanceof ApiError) || ![404, 409, 410].includes(error.status)) throw error;
      const text = error.code === "already_answered" ? words().alreadyAnswered : error.code === "daily_over" ? words().dailyOver : error.message;
      say(text, "alert");
      return;
    }
    if (here.puzzle !== puzzle) return;
    showAnswer(answer);
    showHistory();
  },
  async resync() {}, // Nothing to catch up: a puzzle has no other seat to move.
  rules(own) {
    if (!wrapped.has(own)) wrapped.set(own, wrapRules(own));
    return wrapped.get(own);
  },
};

// ---------------------------------------------------------------- the answer

const names = (cards) => cards.map(cardName).join(", ");
const percent = (share) => `${formatNumber(share * 100)} %`;
const signed = (value) => (value > 0 ? `+${formatNumber(value)}` : formatNumber(value));

function showAnswer(answer) {
  const w = words();
  const box = $("puzzle-answer");
  const verdict = answer.correct ? w.right : w.wrong;
  const best = w.best(names(answer.best), answer.best.length > 1);
  const parts = [
    el("h2", { id: "puzzle-verdict", tabIndex: -1, className: answer.correct ? "is-right" : "is-wrong" }, verdict),
    el("p", {}, `${w.played(cardName(answer.card))} ${best}`),
    el("p", {}, w.layouts(formatNumber(answer.layouts), answer.exhaustive, answer.certain)),
  ];
  // The themes come with the answer only: some are read from the best cards.
  const themes = answer.themes.map((theme) => w.theme[theme] || theme);
  if (themes.length) parts.push(el("p", { className: "puzzle-themes" }, w.themes(themes.join(", "))));
  const marks = (card) =>
    [card === answer.card ? w.yours : null, answer.best.includes(card) ? w.bestMark : null].filter(Boolean);
  const label = (card) => [cardName(card), ...marks(card)].join(", ");
  const chart = bars(
    answer.values.map((value) => [cardName(value.card), value.best_share]),
    w.chart,
    "puzzle-chart",
    "puzzle-chart",
    (index) => answer.best.includes(answer.values[index].card),
  );
  const rows = answer.values.map((value) => [label(value.card), percent(value.best_share), signed(value.value)]);
  parts.push(el("div", { className: "puzzle-values" }, grid(w.cardsTable, [w.card, w.share, w.value], rows), chart));
  if (answer.layout) parts.push(layoutSection(answer.layout));
  const after = answer.player_rating;
  const change = here.rating ? ` (${w.change(Math.round(after.rating) - Math.round(here.rating.rating))})` : "";
  parts.push(el("p", { className: "puzzle-rating" }, w.rating(`${rating(after)}${change}`)));
  const next = el("button", { type: "button", className: "button primary", id: "puzzle-next" }, w.next);
  next.addEventListener("click", () => ask("next"));
  parts.push(el("div", { className: "button-row" }, next));
  box.replaceChildren(...parts);
  box.hidden = false;
  here.rating = after;
  announce(`${verdict} ${best}`);
  $("puzzle-verdict").focus();
}

const order = (seat) => ["S", "W", "N", "E"].indexOf(seat);

/** The other hands of one layout where the card played fails, each at its seat as the table shows them. */
function layoutSection(layout) {
  const list = el("dl", { className: "puzzle-layout" });
  // In the table's order from South's left: West, North, East as the table shows them.
  const seats = Object.keys(layout).sort((a, b) => order(here.turn.toShown(a)) - order(here.turn.toShown(b)));
  for (const seat of seats) {
    const cards = layout[seat];
    const shownSeat = here.turn.toShown(seat);
    list.append(
      el("div", {}, el("dt", {}, seatName(shownSeat)), el("dd", {}, ...cards.map((card) => tableCard(card, "small")))),
    );
  }
  return el("section", { "aria-labelledby": "puzzle-layout-title" }, el("h3", { id: "puzzle-layout-title" }, words().layoutTitle), list);
}

// ---------------------------------------------------------------- the rating and the history

async function showHistory() {
  const game = here.game;
  let mine;
  try {
    mine = await request("GET", `/api/puzzles/me?game=${encodeURIComponent(apiGame(game))}`);
  } catch {
    return; // A game without puzzles, or the server away: the status line says it.
  }
  const box = $("puzzle-history");
  if (here.game !== game || !box) return;
  const w = words();
  const name = gameName(game);
  const open = box.open;
  const parts = [el("summary", {}, w.historyTitle(rating(mine.rating)))];
  if (!mine.answers.length) parts.push(el("p", {}, w.historyEmpty));
  else {
    const dates = new Intl.DateTimeFormat(currentLanguage() === "fr" ? "fr-BE" : "en-GB", { dateStyle: "short", timeStyle: "short" });
    parts.push(plot(mine.answers.map((entry) => entry.rating.rating), w.curve(name), "puzzle-curve", "level-plot"));
    const rows = mine.answers.map((entry, index) => [
      String(index + 1),
      dates.format(new Date(/[Z+]/.test(entry.at.slice(19)) ? entry.at : `${entry.at}Z`)), // a UTC time
      cardName(entry.card),
      entry.correct ? w.yes : w.no,
      rating(entry.rating),
    ]);
    parts.push(grid(w.curveTable(name), [w.number, w.when, w.answer, w.result, w.after], rows));
  }
  box.replaceChildren(...parts);
  box.open = open;
}
