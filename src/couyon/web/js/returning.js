// For players who come back (issue 12): the day's results and the archive (#/results, #/results/<game>),
// the player's statistics (#/stats, #/stats/<game>), and a day's board beside an archive game at the
// table. Loaded on the first visit to one of them: the first load of the table stays as it was.
//
// The server decides what may be seen (docs/api.md): today's results only after the player's ranked
// attempt is finished, the traveller only once the day is over.

import { api, ApiError } from "./api.js";
import { addWords, cardName, formatDay, t } from "./i18n.js";
import { DEFAULT_GAME, GAMES, apiGame, gameInfo, gameName, loadWords } from "./games/index.js";
import returningWords from "./returning-words.js";

addWords(returningWords);

const $ = (id) => document.getElementById(id);

function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  Object.assign(node, properties);
  node.append(...children);
  return node;
}

const requestGame = (gameId) => (gameId === DEFAULT_GAME ? null : apiGame(gameId));

function shiftDay(day, delta) {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + delta);
  return date.toISOString().slice(0, 10);
}

/** A table with a caption, column headers and rows whose first cell heads its row. */
function dataTable(caption, headers, rows, className = "board-table") {
  const table = element("table", { className });
  table.createCaption().textContent = caption;
  const head = table.createTHead().insertRow();
  for (const label of headers) head.append(element("th", { scope: "col", textContent: label }));
  const body = table.createTBody();
  for (const cells of rows) {
    const row = body.insertRow();
    cells.forEach((value, index) => {
      const cell = index === 0 ? element("th", { scope: "row" }) : row.insertCell();
      if (value instanceof Node) cell.append(value);
      else cell.textContent = String(value);
      if (index === 0) row.append(cell);
    });
  }
  // A wide table scrolls inside its own region on a phone, reachable by keyboard.
  const wrap = element("div", { className: "board-wrap", tabIndex: 0 }, [table]);
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", caption);
  return wrap;
}

/** Links to the same view of every game, the one shown marked as the current page. */
function gameTabs(view, gameId, routeFor) {
  const nav = element("nav", { className: "game-tabs" });
  nav.setAttribute("aria-label", t().back.statsGame);
  for (const game of GAMES) {
    const link = element("a", { href: routeFor(view, game.id), textContent: gameName(game.id) });
    if (game.id === gameId) link.setAttribute("aria-current", "page");
    nav.append(link);
  }
  return nav;
}

/** The shared words with ``gameId``'s own where it names things otherwise (coucou counts coups, not deals). */
function wordsOf(gameId) {
  const words = t();
  const own = words[gameId] ?? {};
  return { ...words, dealsHeader: own.dealsHeader ?? words.dealsHeader, back: { ...words.back, ...own.back } };
}

/** Counts as a table whose last cell draws a bar as long as the count (hidden from assistive technology). */
function countTable(caption, header, lines, key) {
  const words = t().back;
  const most = Math.max(1, ...lines.map((line) => line.players));
  const rows = lines.map((line) => {
    const bar = element("span", { className: "count-bar" });
    bar.style.width = `${Math.round((100 * line.players) / most)}%`;
    bar.setAttribute("aria-hidden", "true");
    const cell = element("span", { className: "count-cell" }, [
      element("span", { textContent: String(line.players) }),
      bar,
    ]);
    return [line[key], cell];
  });
  return dataTable(caption, [header, words.playersHeader], rows, "board-table count-table");
}

// ---------------------------------------------------------------- the day's board

/** The first ten of ``gameId``'s board of ``day`` into ``box`` (the results page, and beside an archive game). */
export async function renderDayBoard(box, gameId, day) {
  await loadWords(gameId).catch(() => {});
  const words = wordsOf(gameId);
  box.replaceChildren();
  let data;
  try {
    data = await api.leaderboard("daily", day, requestGame(gameId));
  } catch {
    box.append(element("p", { textContent: words.back.error }));
    return;
  }
  if (!data.entries.length) {
    box.append(element("p", { textContent: words.boardEmpty }));
    return;
  }
  const rows = data.entries
    .slice(0, 10)
    .map((entry) => [entry.rank, entry.name ?? words.anonymousTag(entry.tag), entry.score, entry.deals]);
  const caption = `${words.back.boardTop} · ${words.boardCaptionDaily(formatDay(day))}`;
  box.append(dataTable(caption, [words.rankHeader, words.nameHeader, words.scoreHeader, words.dealsHeader], rows));
}

// ---------------------------------------------------------------- results and archive

/**
 * Put ``parts`` in the results page. The control that had the focus (a day button) gets it back in
 * the new content, or the page's heading if it is now disabled, and the status says the day shown.
 */
function showResultParts(root, parts, said) {
  const focused = root.contains(document.activeElement) ? document.activeElement.id : "";
  root.replaceChildren(...parts);
  if (!focused) return;
  const again = document.getElementById(focused);
  if (again && !again.disabled) again.focus();
  else $("results-title").focus();
  $("results-status").textContent = said;
}

/**
 * The results page of ``gameId``: ``context.page.resultsDay`` (today, or yesterday while today's are
 * hidden), the day picker, the field's scores and deals, the player's place, the day's board, the
 * traveller once the day is over, and the archive's button for a past day.
 */
export async function showResults(gameId, context) {
  const { page, routeFor, playArchive, playToday } = context;
  await loadWords(gameId).catch(() => {});
  const words = wordsOf(gameId);
  const root = $("results-root");
  let status = null;
  try {
    status = await api.daily(requestGame(gameId));
  } catch {
    root.replaceChildren(element("p", { textContent: words.back.error }));
    return;
  }
  const today = status.day;
  const latest = status.finished ? today : shiftDay(today, -1); // the last day whose results this player may see
  if (!page.resultsDay || page.resultsDay > latest || page.resultsGame !== gameId) {
    page.resultsDay = latest;
  }
  page.resultsGame = gameId;
  const day = page.resultsDay;
  const show = () => showResults(gameId, context);

  const previous = element("button", { type: "button", className: "button small", textContent: words.dayPrevious });
  previous.id = "results-previous";
  previous.addEventListener("click", () => {
    page.resultsDay = shiftDay(day, -1);
    show();
  });
  const next = element("button", { type: "button", className: "button small", textContent: words.dayNext });
  next.id = "results-next";
  next.disabled = day >= latest;
  next.addEventListener("click", () => {
    page.resultsDay = shiftDay(day, 1);
    show();
  });
  const picker = element("div", { className: "day-picker" }, [
    previous,
    element("span", { className: "day-label", textContent: formatDay(day) }),
    next,
  ]);
  // Any past day at once, for the archive (the buttons go one day at a time).
  const input = element("input", { type: "date", id: "results-day", value: day, max: latest });
  const jump = element("form", { className: "day-jump" }, [
    element("label", { htmlFor: "results-day", textContent: words.back.dayJump }),
    input,
    element("button", { type: "submit", className: "button small", id: "results-go", textContent: words.back.dayGo }),
  ]);
  jump.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(input.value) || input.value > latest) return;
    page.resultsDay = input.value;
    show();
  });
  const parts = [gameTabs("results", gameId, routeFor), picker, jump];
  if (day !== today && !status.finished) {
    const play = element("button", { type: "button", className: "button primary", textContent: words.back.playToday });
    play.addEventListener("click", () => playToday(gameId));
    parts.push(
      element("p", { className: "results-note", textContent: words.back.todayHidden }),
      element("div", { className: "button-row" }, [play]),
    );
  }
  const heading = element("h2", { id: "results-day-title", textContent: words.back.dayOf(formatDay(day)) });
  parts.push(heading);

  let results;
  try {
    results = await api.dailyResults(requestGame(gameId), day);
  } catch (error) {
    const text = error instanceof ApiError && error.status === 403 ? words.back.hidden : words.back.error;
    showResultParts(root, [...parts, element("p", { textContent: text })], `${heading.textContent}. ${text}`);
    return;
  }
  if (page.resultsDay !== day || page.resultsGame !== gameId) return; // another day was asked meanwhile
  const summary = element("div", { className: "results-summary", id: "results-summary" });
  summary.append(element("p", { textContent: words.back.field(results.players) }));
  if (results.you) {
    const { score, deals, rank, better_than_percent: better } = results.you;
    summary.append(
      element("p", { textContent: words.back.you(score, deals, words.back.place(rank), results.players) }),
    );
    if (better !== null) summary.append(element("p", { textContent: words.back.betterThan(better) }));
  } else {
    summary.append(element("p", { textContent: words.back.notPlayed }));
  }
  parts.push(summary);
  if (results.over) {
    const replay = element("button", { type: "button", className: "button primary", id: "archive-play" });
    replay.textContent = words.back.archivePlay;
    replay.addEventListener("click", () => playArchive(gameId, day));
    parts.push(
      element("p", { textContent: words.back.archiveNote }),
      element("div", { className: "button-row" }, [replay]),
    );
  }
  const grid = element("div", { className: "results-grid" });
  if (results.players) {
    grid.append(
      element("section", { className: "panel" }, [
        countTable(words.back.scoresCaption, words.scoreHeader, results.scores, "score"),
      ]),
      element("section", { className: "panel" }, [
        countTable(words.back.dealsCaption, words.dealsHeader, results.deals, "deals"),
      ]),
    );
  }
  const board = element("div");
  grid.append(element("section", { className: "panel" }, [element("h3", { textContent: words.dayBoardTitle }), board]));
  parts.push(grid);
  if (results.traveller?.length) parts.push(traveller(results.traveller, words));
  else if (!results.over && gameInfo(gameId).traveller) parts.push(element("p", { textContent: words.back.travellerLater }));
  const said = `${heading.textContent}. ${[...summary.children].map((node) => node.textContent).join(" ")}`;
  showResultParts(root, parts, said);
  await renderDayBoard(board, gameId, day);
}

/** The day's traveller (``words``: the game's, see ``wordsOf``): couyon's and Malmedy's deals, tarot's, coucou's coups. */
function traveller(lines, words) {
  const own = (you) => {
    if (!you) return "—";
    const outcome = words.back.outcome[you.outcome] ?? you.outcome ?? "";
    return words.back.yourDeal(you.taker ? words.seat[you.taker] : null, outcome);
  };
  if (lines[0].contracts) return tarotTraveller(lines, words);
  if (lines[0].coup) return coupTraveller(lines, words);
  // The player's own deal comes second: on a phone it is seen without scrolling the table.
  const rows = lines.map((line) => [line.deal, own(line.you), ...dealCounts(line), line.tie]);
  return travellerSection(words.back.travellerHeaders, rows, words);
}

/** How a deal went in the day's games: reached, not taken, taken by South's side or the other, made, failed. */
const dealCounts = (line) => [line.games, line.not_taken, line.taken_by_us, line.taken_by_them, line.made, line.failed];

/** Tarot's traveller: the same counts (taken by South or by a bot's seat), each contract taken and South's average points. */
function tarotTraveller(lines, words) {
  const number = (value) => String(value).replace("-", "−").replace(".", words.decimalPoint);
  const contract = (name) => words.tarot.contract[name] ?? name;
  const contracts = (taken) =>
    taken
      .map((entry) => words.back.contractsTaken(contract(entry.contract), entry.taken_by_us + entry.taken_by_them, entry.made))
      .join(words.back.listSeparator) || "—";
  const own = (you) => {
    if (!you) return "—";
    const outcome = words.back.outcome[you.outcome] ?? you.outcome;
    const seat = you.taker ? words.seat[you.taker] : null;
    return words.back.yourTarotDeal(seat, you.contract ? contract(you.contract) : null, outcome, number(you.points));
  };
  const rows = lines.map((line) => [
    line.deal,
    own(line.you),
    ...dealCounts(line),
    contracts(line.contracts),
    number(line.average_points),
  ]);
  return travellerSection(words.back.travellerTarotHeaders, rows, words);
}

/** Coucou's traveller: per coup number, what seat 1 said and lost in the games that reached it with seat 1 in. */
function coupTraveller(lines, words) {
  const own = (you) => (you ? words.back.yourCoup(cardName(you.card), you.said, you.lost, you.eliminated) : "—");
  const rows = lines.map((line) => [
    line.coup,
    own(line.you),
    line.games,
    line.keep,
    line.change,
    line.dealer,
    line.lost,
    line.eliminated,
  ]);
  return travellerSection(words.back.travellerHeaders, rows, words);
}

function travellerSection(headers, rows, words) {
  const { travellerTitle: title, travellerIntro: intro, travellerCaption: caption } = words.back;
  const section = element("section", { className: "traveller" }, [
    element("h2", { id: "traveller-title", textContent: title }),
    element("p", { textContent: intro }),
    dataTable(caption, headers, rows, "board-table traveller-table"),
  ]);
  section.setAttribute("aria-labelledby", "traveller-title");
  return section;
}

// ---------------------------------------------------------------- statistics

/** The player's statistics in ``gameId``: streaks, ranked games, the calendar and the days played. */
export async function showStats(gameId, context) {
  const { routeFor, showDay } = context;
  await loadWords(gameId).catch(() => {});
  const words = wordsOf(gameId);
  const root = $("stats-root");
  let stats;
  try {
    stats = await api.playerStats(requestGame(gameId));
  } catch {
    root.replaceChildren(gameTabs("stats", gameId, routeFor), element("p", { textContent: words.back.error }));
    return;
  }
  const back = words.back;
  const { games, daily } = stats;
  const facts = [
    [back.facts.daysPlayed, daily.played],
    [back.facts.played, games.played],
    ...(games.won === null ? [] : [[back.facts.won, games.won]]),
    [back.facts.average, games.average_score ?? "—"],
    [back.facts.best, games.best_score ?? "—"],
  ];
  const parts = [
    gameTabs("stats", gameId, routeFor),
    element("p", { className: "streak", id: "streak", textContent: back.streak(daily.streak) }),
    element("p", { textContent: back.bestStreak(daily.best_streak) }),
    element("h2", { textContent: back.factsCaption }),
    element(
      "dl",
      { className: "facts stats-facts", id: "stats-facts" },
      facts.flatMap(([term, value]) => [
        element("dt", { textContent: term }),
        element("dd", { textContent: String(value) }),
      ]),
    ),
    element("p", { className: "results-note", textContent: back.statsNote }),
    element("h2", { textContent: back.calendarTitle }),
    ...calendar(daily.days, stats.today),
    element("h2", { textContent: back.daysTitle }),
  ];
  if (!daily.days.length) parts.push(element("p", { textContent: back.noDays }));
  else {
    const rows = [...daily.days].reverse().map((entry) => {
      const link = element("a", { href: routeFor("results", gameId), textContent: formatDay(entry.day) });
      link.addEventListener("click", () => showDay(gameId, entry.day));
      return [link, entry.score, entry.deals, back.place(entry.rank) + ` / ${entry.players}`];
    });
    parts.push(
      dataTable(back.daysCaption, [back.dayHeader, words.scoreHeader, words.dealsHeader, back.rankHeader], rows),
    );
  }
  root.replaceChildren(...parts);
}

/** One month table per month from the first day played (at most the last twelve) to today's month. */
function calendar(days, today) {
  const words = t();
  const played = new Map(days.map((entry) => [entry.day, entry]));
  const months = [];
  const [lastYear, lastMonth] = today.split("-").map(Number);
  const first = days.length ? days[0].day : today;
  let [year, month] = first.split("-").map(Number);
  while (year * 12 + month < lastYear * 12 + lastMonth - 11)
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  const monthName = new Intl.DateTimeFormat(words.dateFormat, { month: "long", year: "numeric", timeZone: "UTC" });
  while (year * 12 + month <= lastYear * 12 + lastMonth) {
    const start = new Date(Date.UTC(year, month - 1, 1));
    const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const table = element("table", { className: "calendar" });
    table.createCaption().textContent = words.back.calendarCaption(monthName.format(start));
    const head = table.createTHead().insertRow();
    words.back.weekdays.forEach((short, index) => {
      const th = element("th", { scope: "col" }, [
        element("abbr", { title: words.back.weekdayNames[index], textContent: short }),
      ]);
      head.append(th);
    });
    const body = table.createTBody();
    let row = body.insertRow();
    const offset = (start.getUTCDay() + 6) % 7; // Monday first
    for (let blank = 0; blank < offset; blank += 1) row.insertCell();
    for (let date = 1; date <= length; date += 1) {
      if (row.cells.length === 7) row = body.insertRow();
      const iso = `${year}-${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
      const cell = row.insertCell();
      cell.textContent = String(date);
      const entry = played.get(iso);
      if (entry) {
        cell.className = "played";
        const said = words.back.dayPlayed(entry.score, words.back.place(entry.rank), entry.players);
        cell.append(element("span", { className: "visually-hidden", textContent: `, ${said}` }));
      }
      if (iso === today) cell.setAttribute("aria-current", "date");
    }
    while (row.cells.length < 7) row.insertCell();
    months.push(table);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  return months.reverse().map((table) => element("div", { className: "calendar-wrap" }, [table]));
}
