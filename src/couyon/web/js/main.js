// The page: routes on the URL fragment, fills the home pages, the rules,
// the leaderboard and the settings, and hands games to the table.
//
// Routes: #/ (couyon's home, which lists the other games), #/table, #/rules, #/leaderboard,
// #/settings; for another game of js/games/index.js, #/<game> (its home), #/table/<game>,
// #/rules/<game> and #/leaderboard/<game>. #/couyon and #/<view>/couyon are couyon's own.
// #/results and #/stats (and #/results/<game>, #/stats/<game>) are the day's results with the archive,
// and the player's statistics (js/returning.js, loaded on the first visit to one of them).
// #/review/<game id> is the review of a finished game (js/review.js, loaded on its first visit);
// #/tables/<code>/<secret>/review/<game id> that of a friends' table's game, from this person's seat.
// #/puzzles and #/puzzles/<game> are the puzzles (js/puzzles.js, loaded on the first visit), asked on the table.
// #/tables/<code>/<secret> is a friends' table (js/friends/table.js, loaded on its first visit or when a
// home's "Jouer entre amis" or "Rejoindre une table" is used).
// The table (js/table.js, with the game's module and words) is loaded the first time it is needed:
// a table route, a new game, or the leaderboard's name form; a home page loads none of it.

import { api } from "./api.js";
import { applyStaticTexts, currentLanguage, formatDay, refusalText, setLanguage, t } from "./i18n.js";
import { applyPace, setSound, setSpeed, soundOn, speed } from "./settings.js";
import { tableCard } from "./cards.js";
import {
  DEFAULT_GAME,
  GAMES,
  apiGame,
  choiceLabel,
  gameChoice,
  gameInfo,
  gameName,
  gameSentence,
  isGame,
  loadWords,
  pageGame,
  setGameChoice,
} from "./games/index.js";
import { rememberGame, storedGameId } from "./table/storage.js";

const $ = (id) => document.getElementById(id);
const PERIODS = ["day", "week", "all"];
const TIPS_FRAGMENT = "/rules/couyon-tips.html";
const VIEWS = ["table", "rules", "leaderboard", "settings", "results", "stats"];

const page = {
  daily: {}, // the last GET /api/daily answer of each game
  dailyFetchedAt: {},
  countdown: null,
  board: "daily",
  period: "all", // the free board's period: day, week or all
  boardDay: null,
  boardLevel: {}, // the level of the free board shown, by game (else the level last chosen for a game)
  recoveryCode: null, // a code brought by a recovery link (#/recover/<code>), for the settings' field
  game: DEFAULT_GAME, // the game the nav's table, rules and leaderboard links lead to
  rules: new Map(), // fetched rules fragments, by game
  resultsDay: null, // the day the results page shows (js/returning.js), and of which game
  resultsGame: null,
};

// The table module once loaded (null before), and its loading.
let table = null;
let tableLoading = null;

/** The table module, loaded and set up once. */
function openTable() {
  if (!tableLoading) {
    tableLoading = import("./table.js").then((module) => {
      module.setGameOverListener((game) => {
        $("end-leaderboard").href = routeFor("leaderboard", pageGame(game.game ?? DEFAULT_GAME));
        $("end-results").hidden = !(game.mode === "daily" && game.day);
        $("end-results").href = routeFor("results", pageGame(game.game ?? DEFAULT_GAME));
        // A challenge gives the same deals: a free game's, or a daily's once its day is over (Brussels).
        const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Brussels" }).format(new Date());
        $("end-challenge").hidden = !(game.mode === "free" || (game.mode === "daily" && game.day < today));
        $("end-challenge-link").replaceChildren();
        page.endedGame = game;
        // A tournament's or a challenge's game leads back to its page (js/clubs/).
        const back = sessionStorage.getItem(`couyon.club-return.${game.id}`);
        if (back) import("./clubs/challenge.js").then((clubs) => clubs.showReturn($("end-challenge-link"), back));
      });
      $("end-challenge").addEventListener("click", async () =>
        (await import("./clubs/challenge.js")).sendChallenge(page.endedGame, $("end-challenge-link")),
      );
      module.setUpTable();
      table = module;
      return module;
    });
    tableLoading.catch(() => {
      tableLoading = null; // tried again on the next need
    });
  }
  return tableLoading;
}

/** The fragment of a view of a game: couyon keeps the routes it always had. */
function routeFor(view, gameId = DEFAULT_GAME) {
  if (view === "home") return gameId === DEFAULT_GAME ? "#/" : `#/${gameId}`;
  return gameId === DEFAULT_GAME ? `#/${view}` : `#/${view}/${gameId}`;
}

const CLUB_ROUTES = ["clubs", "club", "tournament", "challenge"];

/** {view, game} of a URL fragment; anything unknown is couyon's home. */
function routeOf(hash) {
  const [first = "", second, third, fourth, fifth] = hash.replace(/^#\/?/, "").split("/");
  if (CLUB_ROUTES.includes(first)) return { view: "clubs", game: DEFAULT_GAME, id: hash.replace(/^#\/?/, "") };
  if (first === "tables" && second && fourth === "review") {
    return { view: "review", game: DEFAULT_GAME, id: `${second}:${fifth ?? ""}`, table: { code: second, secret: third ?? "" } };
  }
  if (first === "tables" && second) return { view: "tables", game: DEFAULT_GAME, id: second, secret: third ?? "" };
  if (first === "review" && second) return { view: "review", game: DEFAULT_GAME, id: decodeURIComponent(second) };
  if (first === "tips" && second === undefined) return { view: "tips", game: DEFAULT_GAME };
  if (first === "level" && second === undefined) return { view: "level", game: page.game };
  if (first === "puzzles" && (second === undefined || isGame(second))) return { view: "puzzles", game: second ?? DEFAULT_GAME };
  if (VIEWS.includes(first) && (second === undefined || isGame(second))) {
    const game = first === "settings" ? page.game : second ?? DEFAULT_GAME;
    return { view: first, game };
  }
  if (isGame(first) && second === undefined) return { view: first === DEFAULT_GAME ? "home" : "game", game: first };
  return { view: "home", game: DEFAULT_GAME };
}

async function showRoute({ moveFocus = true } = {}) {
  takeRecoveryLink();
  const { view, game, id, secret, table: seated } = routeOf(location.hash);
  if (view !== "tables") friendsModule?.leave();
  if (view !== "puzzles") puzzlesModule?.leave();
  // The rules and couyon's tips are fragments fetched on the first visit.
  const viewId = view === "tips" || (view === "rules" && game !== DEFAULT_GAME) ? "game-rules" : view;
  page.game = game;
  // A view is never shown with an empty (or the last game's) heading: a screen reader reads it at once. A
  // fragment of rules is fetched first (the last one stays shown meanwhile), a game's name is at hand.
  if (view === "game") {
    $("game-title").textContent = gameName(game);
    $("game-lead").textContent = gameSentence(game);
  }
  const hash = location.hash;
  if (view === "tips") await showGameRules("couyon-tips", TIPS_FRAGMENT);
  else if (viewId === "game-rules") await showGameRules(game, gameInfo(game).rules);
  else if (view === "rules") await showGameRules(game, gameInfo(game).rules, $("rules-body"));
  if (location.hash !== hash) return; // another route was asked for meanwhile: it shows itself
  for (const section of document.querySelectorAll(".view")) section.hidden = section.dataset.view !== viewId;
  for (const name of ["table", "rules", "leaderboard"]) {
    const link = $(`nav-${name}`);
    link.href = routeFor(name, game);
    if (name === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const settingsLink = document.querySelector('.site-nav a[href="#/settings"]');
  if (view === "settings") settingsLink.setAttribute("aria-current", "page");
  else settingsLink.removeAttribute("aria-current");
  for (const own of ["clubs", "level", "puzzles"]) {
    if (view === own) $(`nav-${own}`).setAttribute("aria-current", "page");
    else $(`nav-${own}`).removeAttribute("aria-current");
  }
  document.body.dataset.route = view;
  document.body.dataset.game = game;
  const words = t();
  const name = game === DEFAULT_GAME ? "Couyon" : gameName(game);
  const titles = {
    home: "Couyon",
    game: name,
    table: `${words.tableTitle} · ${name}`,
    rules: `${words.navRules} · ${name}`,
    leaderboard: `${words.leaderboardTitle} · ${name}`,
    settings: `${words.settingsTitle} · Couyon`,
    results: `${words.resultsTitle} · ${name}`,
    stats: `${words.statsTitle} · ${name}`,
    review: `${words.reviewTitle} · Couyon`,
    tips: `${words.linkTips} · Couyon`,
    clubs: "Clubs · Couyon",
    level: `${words.navLevel} · Couyon`,
    puzzles: `${words.navPuzzles} · ${name}`,
    tables: `${words.friendsTitle} · Couyon`,
  };
  document.title = titles[view];
  $("table-title").textContent = game === DEFAULT_GAME ? words.tableTitle : words.tableOf(name);
  if (view !== "table") table?.closeDialogs();
  // The table's link to help: couyon's tips, or the page of another game's rules, tips and questions.
  $("table-help").href = game === DEFAULT_GAME ? "#/tips" : routeFor("rules", game);
  $("table-help").textContent = game === DEFAULT_GAME ? words.linkTips : words.linkGameRules;
  if (moveFocus) {
    const heading = [...document.querySelectorAll(`.view[data-view="${viewId}"] h1`)].find(
      (h1) => !h1.closest("[hidden]"),
    );
    heading?.focus();
  }
  if (view === "home") await refreshHome(DEFAULT_GAME);
  if (view === "game") await refreshHome(game);
  if (view === "leaderboard") {
    $("board-name-status").textContent = "";
    await refreshBoard(game);
  }
  if (view === "settings") await refreshSettings();
  if (view === "results") await (await import("./returning.js")).showResults(game, returningContext);
  if (view === "stats") await (await import("./returning.js")).showStats(game, returningContext);
  if (view === "review") await (await import("./review.js")).showReview($("review-root"), id, seated);
  if (view === "level") await (await import("./level.js")).showLevel($("level-root"));
  if (view === "clubs") await (await import("./clubs/clubs.js")).showClubs($("clubs-root"), $("clubs-title"), id, clubsContext);
  if (view === "table" && !(await openTable()).hasGame(game)) await resumeStoredGame(game);
  if (view === "tables") await (await friends()).showTable(id, secret);
  if (view === "puzzles") {
    puzzlesModule = await import("./puzzles.js");
    await puzzlesModule.showPuzzles(game, { openTable });
  }
}

/** js/puzzles.js once loaded (never on the first load). */
let puzzlesModule = null;

// ---------------------------------------------------------------- friends' tables

let friendsModule = null;

/** js/friends/table.js, loaded and given what it needs of this page once (never on the first load). */
async function friends() {
  if (!friendsModule) {
    const module = await import("./friends/table.js");
    module.setUp({ openTable, chosenOptions });
    friendsModule = module;
  }
  return friendsModule;
}

/** The friends' card of a game's home (couyon's is the site's home page): its name field, status, join form. */
function friendsCard(gameId) {
  const prefix = gameId === DEFAULT_GAME ? "" : "game-";
  return {
    nameRow: $(`${prefix}friends-name-row`),
    name: $(`${prefix}friends-home-name`),
    nameStatus: $(`${prefix}friends-home-name-status`),
    clock: $(`${prefix}friends-clock`),
    status: $(`${prefix}friends-status`),
    code: $(`${prefix}join-code`),
    joinStatus: $(`${prefix}join-status`),
  };
}

/** The friends' card asks a nameless person's name in place ("Ton nom"), shown until he has one. */
async function showFriendsName(gameId) {
  const card = friendsCard(gameId);
  try {
    card.nameRow.hidden = Boolean((await api.player()).name);
  } catch {
    card.nameRow.hidden = false;
  }
}

/**
 * The name typed in the friends' card saved on the way to a table: true when the person may go on (the
 * field is not asked, or the name was saved); else the refusal in one sentence beside the field.
 */
async function nameOnTheWay(card, { required }) {
  card.nameStatus.textContent = "";
  if (card.nameRow.hidden) return true;
  const name = card.name.value.trim();
  if (!name && !required) return true;
  // A name given since the home was drawn (the settings, another tab) is enough.
  if (!name && (await api.player().catch(() => ({}))).name) {
    card.nameRow.hidden = true;
    return true;
  }
  if (!name) {
    card.nameStatus.textContent = t().nameNeeded;
    card.name.focus();
    return false;
  }
  try {
    await api.setPlayerName(name);
  } catch (error) {
    card.nameStatus.textContent = refusalText(error);
    card.name.focus();
    return false;
  }
  card.nameRow.hidden = true;
  return true;
}

/** "Jouer entre amis" on a game's home: the name if he has none, then a table with the home's options and clock. */
async function playWithFriends(gameId) {
  const card = friendsCard(gameId);
  card.status.textContent = "";
  if (!(await nameOnTheWay(card, { required: true }))) return;
  const module = await friends();
  const game = gameId === DEFAULT_GAME ? DEFAULT_GAME : apiGame(gameId);
  const refused = await module.openNew(game, chosenOptions(gameId), Number(card.clock.value), card.status);
  if (refused && refused.code === "name_required") {
    card.nameRow.hidden = false;
    card.status.textContent = "";
    card.nameStatus.textContent = t().nameNeeded;
    card.name.focus();
  }
}

/** "Rejoindre une table": the name if one was typed (else the lobby asks it), then the table of a code read aloud. */
async function joinByCode(event, gameId) {
  event.preventDefault();
  const card = friendsCard(gameId);
  card.joinStatus.textContent = "";
  if (!(await nameOnTheWay(card, { required: false }))) return;
  const module = await friends();
  await module.joinByCode(card.code.value, card.joinStatus);
}

// ---------------------------------------------------------------- homes

/** The buttons and texts of a game's home: couyon's is the site's home page. */
function homeOf(gameId) {
  const own = gameId === DEFAULT_GAME;
  return {
    fan: $(own ? "hero-fan" : "game-fan"),
    resume: $(own ? "resume-game" : "game-resume"),
    daily: $(own ? "play-daily" : "game-daily"),
    time: $(own ? "daily-time" : "game-daily-time"),
    result: $(own ? "daily-result" : "game-daily-result"),
    results: $(own ? "daily-results" : "game-daily-results"),
    list: $(own ? "game-list" : "game-others"),
  };
}

async function resumeStoredGame(gameId) {
  table.clear();
  showDayBoard();
  const id = storedGameId(gameId);
  if (id && (await table.load(id, gameId))) {
    showDayBoard();
    return;
  }
  $("prompt").textContent = t().noGame;
  table.offerNewGame();
}

function renderCountdown(gameId) {
  const box = homeOf(gameId).time;
  const daily = page.daily[gameId];
  if (!daily) {
    box.textContent = t().dailyUnavailable;
    return;
  }
  const elapsed = Math.floor((Date.now() - page.dailyFetchedAt[gameId]) / 1000);
  const left = Math.max(0, daily.seconds_left - elapsed);
  const [hours, minutes] = [Math.floor(left / 3600), Math.floor((left % 3600) / 60)];
  box.textContent = daily.finished
    ? `${t().dailyDone} ${t().dailyNext(hours, minutes)}`
    : t().dailyTimeLeft(hours, minutes);
  if (left === 0) refreshHome(gameId);
}

// A fan of four cards to greet the player: decoration only, hidden from assistive technology.
function drawHeroFan(box, cards) {
  box.replaceChildren(...cards.map((code) => tableCard(code)));
  for (const card of box.children) {
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
  }
}

/** The games other than ``gameId``, each as a link to its home with its one sentence. */
function fillGameList(list, gameId) {
  list.replaceChildren();
  for (const game of GAMES) {
    if (game.id === gameId) continue;
    const item = document.createElement("li");
    item.className = "panel game-card";
    const heading = document.createElement("h3");
    const link = document.createElement("a");
    link.href = routeFor("home", game.id);
    link.textContent = gameName(game.id);
    heading.append(link);
    const sentence = document.createElement("p");
    sentence.textContent = gameSentence(game.id);
    item.append(heading, sentence);
    list.append(item);
  }
}

/**
 * The radio buttons of a game's table choice (tarot: 3, 4 or 5 players) in ``box``; hidden for a
 * game without one. ``changed`` runs after the player picks another value.
 */
function renderChoice(box, gameId, changed) {
  const choice = gameInfo(gameId).choice;
  box.hidden = !choice;
  if (!choice) {
    box.replaceChildren();
    return;
  }
  // Drawn again only for another game or language: redrawing would take the focus from the radio just chosen.
  const drawn = `${gameId}:${currentLanguage()}`;
  if (box.dataset.drawn === drawn) {
    for (const input of box.querySelectorAll("input")) input.checked = Number(input.value) === gameChoice(gameId);
    return;
  }
  box.dataset.drawn = drawn;
  box.replaceChildren();
  const legend = document.createElement("legend");
  legend.textContent = t().playersLegend;
  box.append(legend);
  const row = document.createElement("div");
  row.className = "choice-row";
  for (const value of choice.values) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = `${box.id}-value`;
    input.value = String(value);
    input.checked = value === gameChoice(gameId);
    input.addEventListener("change", () => {
      setGameChoice(gameId, value);
      changed();
    });
    label.append(input, ` ${choiceLabel(gameId, value)}`);
    row.append(label);
  }
  box.append(row);
}

async function fetchDaily(gameId) {
  try {
    page.daily[gameId] = await api.daily(gameId === DEFAULT_GAME ? null : apiGame(gameId));
    page.dailyFetchedAt[gameId] = Date.now();
  } catch {
    page.daily[gameId] = null;
  }
  return page.daily[gameId];
}

async function refreshHome(gameId) {
  const home = homeOf(gameId);
  if (gameId !== DEFAULT_GAME) {
    // The links need no words: set before the words load, while the home is already shown with its heading.
    $("game-rules-link").href = routeFor("rules", gameId);
    $("game-board-link").href = routeFor("leaderboard", gameId);
    $("game-results-link").href = routeFor("results", gameId);
    $("game-stats-link").href = routeFor("stats", gameId);
  }
  // Another game's home says some of its own words (couyon's home, the site's, needs none of its own).
  if (gameId !== DEFAULT_GAME) await loadWords(gameId).catch(() => {}); // else it says the shared ones
  if (gameId === DEFAULT_GAME) renderOptions(gameId, $("home-options"), "home-option");
  showFriendsName(gameId);
  drawHeroFan(home.fan, gameInfo(gameId).fan);
  fillGameList(home.list, gameId);
  if (gameId !== DEFAULT_GAME) {
    $("game-title").textContent = gameName(gameId);
    $("game-lead").textContent = gameSentence(gameId);
    renderOptions(gameId);
    const own = t()[gameId] ?? {};
    $("game-free-text").textContent = own.freeText ?? t().freeText;
    $("game-daily-note").hidden = !own.dailyNote;
    $("game-daily-note").textContent = own.dailyNote ?? "";
    $("game-daily-rules").textContent = own.dailyRules ?? t().dailyRules;
    renderChoice($("game-choice"), gameId, () => refreshHome(gameId));
  }
  home.resume.hidden = !storedGameId(gameId);
  const daily = await fetchDaily(gameId);
  const words = t();
  if (daily && daily.finished) home.daily.textContent = words.replayDaily;
  else if (daily && daily.game_id) home.daily.textContent = words.resumeDaily;
  else home.daily.textContent = words.playDaily;
  renderCountdown(gameId);
  await renderDailyResult(gameId, daily);
  clearInterval(page.countdown);
  page.countdown = setInterval(() => renderCountdown(gameId), 30_000);
}

/** Once the day's ranked attempt is finished, the home says its score and rank and leads to the day's results. */
async function renderDailyResult(gameId, daily) {
  const home = homeOf(gameId);
  const finished = Boolean(daily && daily.finished);
  home.results.hidden = !finished;
  home.results.href = routeFor("results", gameId);
  if (!finished) {
    home.result.hidden = true;
    return;
  }
  const words = t().back;
  let text = words.homePending;
  try {
    const results = await api.dailyResults(gameId === DEFAULT_GAME ? null : apiGame(gameId), daily.day);
    if (results.you) {
      const { score, rank, better_than_percent: better } = results.you;
      text = words.homeResult(score, rank, results.players);
      if (better !== null) text += ` ${words.betterThan(better)}`;
    }
  } catch {
    // The finished attempt is still being checked, or the server is away: the sentence says it is pending.
  }
  home.result.textContent = text; // shown with its sentence, never empty
  home.result.hidden = false;
  page.resultsDay = daily.day;
  page.resultsGame = gameId;
}

/** Beside an unranked daily game (the archive, or a replay of today's), the table shows that day's board. */
async function showDayBoard() {
  const game = table?.currentGame();
  const box = $("day-board");
  const shown = Boolean(game && game.mode === "daily" && game.day && !game.ranked);
  box.hidden = !shown;
  if (!shown) return;
  const { renderDayBoard } = await import("./returning.js");
  await renderDayBoard($("day-board-body"), pageGame(game.game ?? DEFAULT_GAME), game.day);
}

const clubsContext = {
  routeFor,
  // A tournament's or a challenge's game: kept as the game in progress of its page, then the table resumes it.
  playGame: async (answer) => {
    const gameId = pageGame(answer.game);
    rememberGame(gameId, answer.id);
    sessionStorage.setItem(`couyon.club-return.${answer.id}`, location.hash);
    (await openTable()).clear();
    location.hash = routeFor("table", gameId);
  },
};

const returningContext = {
  page,
  routeFor,
  playArchive: (gameId, day) => startGame(gameId, "daily", false, day),
  playToday: (gameId) => playDaily(gameId),
  showDay: (gameId, day) => {
    page.resultsDay = day;
    page.resultsGame = gameId;
  },
};

// ---------------------------------------------------------------- table options of a free game

const optionsKey = (gameId) => `couyon.options.${gameId}`;

/** The table options last chosen for a game's free games (each at its default until chosen). */
function chosenOptions(gameId) {
  const rules = gameInfo(gameId).options;
  if (!rules) return null;
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(optionsKey(gameId)) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  return Object.fromEntries(
    rules.map((rule) => [rule.name, rule.values.includes(stored[rule.name]) ? stored[rule.name] : rule.default]),
  );
}

function rememberOption(gameId, name, value) {
  try {
    localStorage.setItem(optionsKey(gameId), JSON.stringify({ ...chosenOptions(gameId), [name]: value }));
  } catch {
    // Without storage the choice lasts until the page is left.
  }
}

/** One labelled list per table option of the game (coucou: players, tokens, level); hidden for a game without. */
function renderOptions(gameId, box = $("game-options"), prefix = "option") {
  const rules = gameInfo(gameId).options;
  box.hidden = !rules;
  box.replaceChildren();
  if (!rules) return;
  const words = t();
  const chosen = chosenOptions(gameId);
  const legend = document.createElement("legend");
  legend.textContent = words.optionsLegend;
  box.append(legend);
  for (const rule of rules) {
    const id = `${prefix}-${rule.name}`;
    const row = document.createElement("div");
    row.className = "option-row";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = words.optionNames[rule.name] ?? rule.name;
    const select = document.createElement("select");
    select.id = id;
    select.name = rule.name;
    for (const value of rule.values) {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = typeof value === "string" ? words.levelNames[value] ?? value : String(value);
      option.selected = value === chosen[rule.name];
      select.append(option);
    }
    select.addEventListener("change", () => {
      const value = rule.values.find((allowed) => String(allowed) === select.value);
      if (value !== undefined) rememberOption(gameId, rule.name, value);
    });
    row.append(label, select);
    box.append(row);
  }
}

async function startGame(gameId, mode, ranked = true, day = null) {
  // The table is there before the route changes, so that the route finds the game being started.
  const shown = await openTable().catch(() => null);
  location.hash = routeFor("table", gameId);
  $("day-board").hidden = true;
  try {
    await shown.start(gameId, mode, ranked, mode === "free" ? chosenOptions(gameId) : null, day);
  } catch {
    $("prompt").textContent = t().errorGeneric;
  }
  await showDayBoard();
}

function playDaily(gameId) {
  const daily = page.daily[gameId];
  startGame(gameId, "daily", !(daily && daily.finished));
}

// ---------------------------------------------------------------- the rules (fragments fetched on the first visit)

/** Fetch a fragment of rules (a game's, or couyon's tips) from ``url`` once, both languages, and show it in
 * ``body`` (couyon's rules have a view of their own, #view-rules). */
async function showGameRules(gameId, url, body = $("game-rules-body")) {
  if (body.dataset.game === gameId) return;
  let fragment = page.rules.get(gameId);
  if (!fragment) {
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(String(response.status));
      fragment = new DOMParser().parseFromString(await response.text(), "text/html").body;
      page.rules.set(gameId, fragment);
    } catch {
      const heading = document.createElement("h1");
      heading.tabIndex = -1;
      heading.textContent = t().rulesUnavailable;
      body.replaceChildren(heading);
      delete body.dataset.game;
      return;
    }
  }
  body.replaceChildren(...[...fragment.children].map((node) => document.importNode(node, true)));
  body.dataset.game = gameId;
  applyStaticTexts();
}

// ---------------------------------------------------------------- leaderboard

function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

function shiftDay(day, delta) {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + delta);
  return isoDay(date);
}

/** Links to each game's leaderboard, the one shown marked as the current page. */
function renderBoardGames(gameId) {
  const box = $("board-games");
  box.replaceChildren();
  for (const game of GAMES) {
    const link = document.createElement("a");
    link.href = routeFor("leaderboard", game.id);
    link.textContent = gameName(game.id);
    if (game.id === gameId) link.setAttribute("aria-current", "page");
    box.append(link);
  }
}

async function refreshBoard(gameId) {
  await loadWords(gameId).catch(() => {}); // a game may name its deals column (coucou's coups)
  const words = t();
  renderBoardGames(gameId);
  renderChoice($("board-choice"), gameId, () => refreshBoard(gameId));
  $("board-daily").setAttribute("aria-pressed", String(page.board === "daily"));
  $("board-free").setAttribute("aria-pressed", String(page.board === "free"));
  $("board-rating").setAttribute("aria-pressed", String(page.board === "rating"));
  $("day-picker").hidden = page.board !== "daily";
  $("period-picker").hidden = page.board !== "free";
  for (const period of PERIODS) $(`period-${period}`).setAttribute("aria-pressed", String(page.period === period));
  $("board-invite").replaceChildren();
  if (page.board === "daily") {
    // Fresh each time: whether today's ranked attempt is finished decides whether today's board may be shown.
    const daily = await fetchDaily(gameId);
    if (!page.boardDay) page.boardDay = daily ? daily.day : isoDay(new Date());
  }
  const today = page.daily[gameId] ? page.daily[gameId].day : null;
  $("day-next").disabled = page.boardDay === today;
  $("day-label").textContent = page.boardDay ? formatDay(page.boardDay) : "";
  const box = $("board");
  box.replaceChildren();
  if (page.board === "rating") {
    renderBoardLevel(gameId); // hides the level chooser: a rating counts every level's bots at their own anchor
    await showRatingBoard(box, gameId);
    return;
  }
  // Today's board waits for the player's finished ranked attempt, as today's results do (docs/api.md): the page
  // does not ask for what the server would refuse.
  if (page.board === "daily" && page.boardDay === today && page.daily[gameId] && !page.daily[gameId].finished) {
    const hidden = document.createElement("p");
    hidden.textContent = words.boardHidden;
    box.append(hidden);
    return;
  }
  let data;
  try {
    data = await api.leaderboard(
      page.board,
      page.boardDay,
      gameId === DEFAULT_GAME ? null : apiGame(gameId),
      page.period,
      renderBoardLevel(gameId),
    );
  } catch (failure) {
    // Today's board waits for the player's finished ranked attempt, as today's results do (docs/api.md).
    const error = document.createElement("p");
    error.textContent = failure.code === "results_hidden" ? words.boardHidden : words.errorGeneric;
    box.append(error);
    return;
  }
  if (!data.entries.length) {
    const empty = document.createElement("p");
    empty.textContent = words.boardEmpty;
    box.append(empty);
    return;
  }
  const tableElement = document.createElement("table");
  tableElement.className = "board-table";
  const caption =
    page.board === "daily" ? words.boardCaptionDaily(formatDay(page.boardDay)) : words.boardCaptionFree(page.period);
  const choice = gameInfo(gameId).choice ? ` (${choiceLabel(gameId, gameChoice(gameId))})` : "";
  const ofLevel =
    data.level && page.board === "free" ? words.boardCaptionLevel(caption, words.levelNames[data.level]) : caption;
  tableElement.createCaption().textContent =
    gameId === DEFAULT_GAME ? ofLevel : `${gameName(gameId)}${choice} · ${ofLevel}`;
  const head = tableElement.createTHead().insertRow();
  // A game whose lines know the place (coucou) shows it; a game may name its deals otherwise ("coups").
  const places = data.entries.some((entry) => entry.place);
  const dealsHeader = (t()[gameId] ?? {}).dealsHeader ?? words.dealsHeader;
  const headers = [words.rankHeader, words.nameHeader, ...(places ? [words.placeHeader] : [])];
  for (const label of [...headers, words.scoreHeader, dealsHeader, words.whenHeader]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    head.append(th);
  }
  const body = tableElement.createTBody();
  // Short enough for a 320 px screen: 1/12/26 07:48.
  const dateFormat = new Intl.DateTimeFormat(words.dateFormat, {
    day: "numeric",
    month: "numeric",
    year: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
  for (const entry of data.entries) {
    const row = body.insertRow();
    const rank = document.createElement("th");
    rank.scope = "row";
    rank.textContent = String(entry.rank);
    row.append(rank);
    // The player's own row: marked for the eye (.is-you), for a screen reader (aria-current) and in words.
    const name = entry.name ?? words.anonymousTag(entry.tag);
    row.insertCell().textContent = entry.you ? `${name} ${words.youMark}` : name;
    if (entry.you) {
      row.className = "is-you";
      row.setAttribute("aria-current", "true");
    }
    if (places) row.insertCell().textContent = entry.place ? words.placeOf(entry.place, entry.players) : "";
    row.insertCell().textContent = String(entry.score);
    row.insertCell().textContent = String(entry.deals);
    const when = entry.finished_at ? new Date(entry.finished_at) : null;
    row.insertCell().textContent = when && !Number.isNaN(when.getTime()) ? dateFormat.format(when) : "";
  }
  box.append(tableElement);
  const nameless = data.entries.find((entry) => entry.you && !entry.name);
  if (nameless) await inviteToName(nameless, gameId);
}

/** The board by rating of a game (GET /api/ratings/board): only ratings no longer provisional, docs/ratings.md. */
async function showRatingBoard(box, gameId) {
  const words = t();
  let data;
  try {
    data = await api.ratingBoard(apiGame(gameId));
  } catch {
    box.append(Object.assign(document.createElement("p"), { textContent: words.errorGeneric }));
    return;
  }
  if (!data.entries.length) {
    box.append(Object.assign(document.createElement("p"), { textContent: words.boardRatingEmpty }));
    return;
  }
  const tableElement = document.createElement("table");
  tableElement.className = "board-table";
  const choice = gameInfo(gameId).choice ? ` (${choiceLabel(gameId, gameChoice(gameId))})` : "";
  tableElement.createCaption().textContent = `${gameName(gameId)}${choice} · ${words.boardCaptionRating}`;
  const head = tableElement.createTHead().insertRow();
  for (const label of [words.rankHeader, words.nameHeader, words.ratingHeader, words.gamesHeader]) {
    head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: label }));
  }
  const body = tableElement.createTBody();
  for (const entry of data.entries) {
    const row = body.insertRow();
    row.append(Object.assign(document.createElement("th"), { scope: "row", textContent: String(entry.rank) }));
    row.insertCell().textContent = entry.name ?? "—";
    row.insertCell().textContent = `${entry.rating} ± ${(3 * entry.sigma).toFixed(1)}`;
    row.insertCell().textContent = String(entry.games);
  }
  box.append(tableElement);
}

/** The player's row is nameless: say how it shows and offer to choose a name, right under the board. */
async function inviteToName(entry, gameId) {
  const { nameForm } = await openTable();
  const intro = document.createElement("p");
  intro.textContent = t().nameInvite(t().anonymousTag(entry.tag));
  const form = nameForm("board-name", { status: $("board-name-status"), saved: () => refreshBoard(gameId) });
  $("board-invite").replaceChildren(intro, form);
}

/**
 * The level chooser of the free board, for a game with levels: its select filled and shown. The level
 * shown, or null for a board without levels (a daily board, a game without levels).
 */
function renderBoardLevel(gameId) {
  const rule = (gameInfo(gameId).options ?? []).find((option) => option.name === "level");
  const box = $("board-level");
  box.hidden = !rule || page.board !== "free";
  if (box.hidden) return null;
  const chosen = page.boardLevel[gameId] ?? chosenOptions(gameId).level;
  const select = $("board-level-select");
  const words = t();
  const drawn = `${gameId}:${currentLanguage()}`;
  if (select.dataset.drawn !== drawn) {
    select.dataset.drawn = drawn;
    select.replaceChildren(
      ...rule.values.map((value) => {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = words.levelNames[value] ?? value;
        return option;
      }),
    );
  }
  select.value = chosen;
  return chosen;
}

// ---------------------------------------------------------------- settings

/** A recovery link (#/recover/<code>) leaves its code for the settings' field and the address bar at #/settings. */
function takeRecoveryLink() {
  const match = location.hash.match(/^#\/recover\/(.+)$/);
  if (!match) return;
  page.recoveryCode = decodeURIComponent(match[1]);
  history.replaceState(null, "", "#/settings");
}

/** Show a code of this device's player in the settings' field, selected for copying. */
function showCode(code) {
  $("recovery-code").value = code;
  $("recovery-code-box").hidden = false;
  $("recovery-code").focus();
  $("recovery-code").select();
}

async function showRecoveryCode() {
  const status = $("recovery-status");
  try {
    const { code } = await api.recoveryCode();
    status.textContent = "";
    showCode(code);
  } catch (error) {
    status.textContent = error.status === 404 ? t().recoveryNone : t().errorGeneric;
  }
}

/** A new code for this device's player: every older one stops working. */
async function makeNewRecoveryCode() {
  const status = $("recovery-status");
  try {
    const { code } = await api.newRecoveryCode();
    showCode(code);
    status.textContent = t().recoveryNewDone;
  } catch (error) {
    status.textContent = error.status === 404 ? t().recoveryNone : t().errorGeneric;
  }
}

async function copyRecovery(text, status = $("recovery-status")) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = t().copied;
  } catch {
    status.textContent = t().copyFailed;
  }
}

/**
 * Whether this device may become the player of ``code``: yes at once if it has no player, or one
 * without games, or that same player; otherwise the player is asked first, with the current
 * player's code to note (those games can be got back only with it).
 */
async function mayReplacePlayer(code) {
  let current;
  try {
    current = await api.recoveryCode();
  } catch (error) {
    if (error.status === 404) return true;
    throw error;
  }
  if (!current.games || current.code === code) return true;
  const dialog = $("recovery-dialog");
  $("recovery-dialog-text").textContent = t().recoveryAskText(current.games);
  $("recovery-current").value = current.code;
  $("recovery-dialog-status").textContent = "";
  dialog.returnValue = "";
  dialog.showModal();
  // Escape cancels: the dialog closes with no value, as "Keep my player" does.
  const choice = await new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }),
  );
  $("recovery-use").focus();
  return choice === "switch";
}

async function useRecoveryCode(event) {
  event.preventDefault();
  const status = $("recovery-status");
  const code = $("recovery-enter").value.trim();
  if (!code) {
    status.textContent = t().recoveryEmpty;
    return;
  }
  try {
    if (!(await mayReplacePlayer(code))) {
      status.textContent = t().recoveryKept;
      return;
    }
    const player = await api.recover(code);
    status.textContent = t().recoveryDone(player.name);
    $("recovery-enter").value = "";
    $("recovery-code-box").hidden = true;
    $("player-name").value = player.name ?? "";
  } catch (error) {
    status.textContent =
      error.status === 422 ? t().recoveryBad : error.status === 410 ? t().recoveryReplaced : t().errorGeneric;
  }
}

async function refreshSettings() {
  const form = $("settings-form");
  form.elements.language.value = currentLanguage();
  form.elements.speed.value = speed() === "instant" ? "fast" : speed();
  form.elements.sound.checked = soundOn();
  if (page.recoveryCode) {
    $("recovery-enter").value = page.recoveryCode;
    $("recovery-status").textContent = t().recoveryReceived;
    page.recoveryCode = null;
  }
  try {
    const player = await api.player();
    if (player.name && document.activeElement !== $("player-name")) $("player-name").value = player.name;
  } catch {
    // The name field stays empty; saving will report the problem.
  }
}

async function saveName(event) {
  event.preventDefault();
  const status = $("name-status");
  const name = $("player-name").value.trim();
  try {
    await api.setPlayerName(name);
    status.textContent = t().nameSaved;
  } catch (error) {
    status.textContent = refusalText(error);
  }
}

// ---------------------------------------------------------------- start

/** The game of the table: the one it shows, else the one its route names. */
function tableGame() {
  const game = table?.currentGame();
  return game ? pageGame(game.game ?? DEFAULT_GAME) : page.game;
}

function wire() {
  $("new-game").addEventListener("click", () => startGame(DEFAULT_GAME, "free"));
  $("resume-game").addEventListener("click", () => {
    location.hash = routeFor("table");
  });
  $("play-daily").addEventListener("click", () => playDaily(DEFAULT_GAME));
  $("game-new").addEventListener("click", () => startGame(page.game, "free"));
  $("game-resume").addEventListener("click", () => {
    location.hash = routeFor("table", page.game);
  });
  $("game-daily").addEventListener("click", () => playDaily(page.game));
  $("end-new-game").addEventListener("click", () => startGame(tableGame(), "free"));
  $("table-new-game").addEventListener("click", () => startGame(tableGame(), "free"));
  $("end-results").addEventListener("click", () => {
    const game = table?.currentGame();
    if (game && game.day) returningContext.showDay(pageGame(game.game ?? DEFAULT_GAME), game.day);
    $("end-dialog").close();
  });
  $("end-leaderboard").addEventListener("click", () => {
    const game = table?.currentGame();
    page.board = game && game.mode === "daily" ? "daily" : "free";
    page.boardDay = game && game.day ? game.day : page.boardDay;
    if (game && game.options && game.options.level) {
      page.boardLevel[pageGame(game.game ?? DEFAULT_GAME)] = game.options.level;
    }
    $("end-dialog").close();
  });
  $("board-daily").addEventListener("click", () => {
    page.board = "daily";
    refreshBoard(page.game);
  });
  $("board-free").addEventListener("click", () => {
    page.board = "free";
    refreshBoard(page.game);
  });
  $("board-rating").addEventListener("click", () => {
    page.board = "rating";
    refreshBoard(page.game);
  });
  for (const period of PERIODS) {
    $(`period-${period}`).addEventListener("click", () => {
      page.period = period;
      refreshBoard(page.game);
    });
  }
  $("day-previous").addEventListener("click", () => {
    page.boardDay = shiftDay(page.boardDay, -1);
    refreshBoard(page.game);
  });
  $("day-next").addEventListener("click", () => {
    page.boardDay = shiftDay(page.boardDay, 1);
    refreshBoard(page.game);
  });
  const form = $("settings-form");
  form.addEventListener("submit", saveName);
  form.addEventListener("change", (event) => {
    if (event.target.name === "language") {
      setLanguage(event.target.value);
      table?.rerender();
      showRoute({ moveFocus: false });
    } else if (event.target.name === "speed") {
      setSpeed(event.target.value);
    } else if (event.target.name === "sound") {
      setSound(event.target.checked);
      table?.showSound();
    }
  });
  $("board-level-select").addEventListener("change", (event) => {
    page.boardLevel[page.game] = event.target.value;
    refreshBoard(page.game);
  });
  $("recovery-show").addEventListener("click", showRecoveryCode);
  $("recovery-copy").addEventListener("click", () => copyRecovery($("recovery-code").value));
  $("recovery-copy-link").addEventListener("click", () =>
    copyRecovery(`${location.origin}${location.pathname}#/recover/${encodeURIComponent($("recovery-code").value)}`),
  );
  $("recovery-form").addEventListener("submit", useRecoveryCode);
  $("recovery-new").addEventListener("click", makeNewRecoveryCode);
  $("recovery-current-copy").addEventListener("click", () =>
    copyRecovery($("recovery-current").value, $("recovery-dialog-status")),
  );
  $("play-friends").addEventListener("click", () => playWithFriends(DEFAULT_GAME));
  $("game-play-friends").addEventListener("click", () => playWithFriends(page.game));
  $("join-form").addEventListener("submit", (event) => joinByCode(event, DEFAULT_GAME));
  $("game-join-form").addEventListener("submit", (event) => joinByCode(event, page.game));
  window.addEventListener("hashchange", () => showRoute());
}

applyStaticTexts();
applyPace();
wire();
showRoute({ moveFocus: false });
