// The page: routes on the URL fragment (#/, #/table, #/rules, #/leaderboard, #/settings),
// fills the home page, the leaderboard and the settings, and hands games to the table.

import { api } from "./api.js";
import { applyStaticTexts, currentLanguage, formatDay, setLanguage, t } from "./i18n.js";
import { applyPace, setSpeed, speed } from "./settings.js";
import { tableCard } from "./cards.js";
import * as table from "./table.js";

const $ = (id) => document.getElementById(id);
const ROUTES = ["home", "table", "rules", "leaderboard", "settings"];

const page = {
  daily: null, // the last GET /api/daily answer
  dailyFetchedAt: 0,
  countdown: null,
  board: "daily",
  boardDay: null,
};

function routeOf(hash) {
  const name = hash.replace(/^#\/?/, "");
  return ROUTES.includes(name) ? name : "home";
}

async function showRoute({ moveFocus = true } = {}) {
  const route = routeOf(location.hash);
  for (const view of document.querySelectorAll(".view")) view.hidden = view.dataset.view !== route;
  for (const link of document.querySelectorAll(".site-nav a")) {
    if (link.getAttribute("href") === `#/${route}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.route = route;
  const words = t();
  const titles = {
    home: "Couyon",
    table: `${words.tableTitle} · Couyon`,
    rules: `${words.navRules} · Couyon`,
    leaderboard: `${words.leaderboardTitle} · Couyon`,
    settings: `${words.settingsTitle} · Couyon`,
  };
  document.title = titles[route];
  if (route !== "table") table.closeDialogs();
  if (moveFocus) {
    const heading = [...document.querySelectorAll(`.view[data-view="${route}"] h1`)].find(
      (h1) => !h1.closest("[hidden]"),
    );
    heading?.focus();
  }
  if (route === "home") await refreshHome();
  if (route === "leaderboard") await refreshBoard();
  if (route === "settings") await refreshSettings();
  if (route === "table" && !table.hasGame()) await resumeStoredGame();
}

// ---------------------------------------------------------------- home

async function resumeStoredGame() {
  const id = table.storedGameId();
  if (id && (await table.load(id))) return;
  $("prompt").textContent = t().noGame;
  table.offerNewGame();
}

function renderCountdown() {
  const box = $("daily-time");
  if (!page.daily) {
    box.textContent = t().dailyUnavailable;
    return;
  }
  const elapsed = Math.floor((Date.now() - page.dailyFetchedAt) / 1000);
  const left = Math.max(0, page.daily.seconds_left - elapsed);
  const [hours, minutes] = [Math.floor(left / 3600), Math.floor((left % 3600) / 60)];
  box.textContent = page.daily.finished
    ? `${t().dailyDone} ${t().dailyNext(hours, minutes)}`
    : t().dailyTimeLeft(hours, minutes);
  if (left === 0) refreshHome();
}

// A fan of four cards to greet the player: decoration only, hidden from assistive technology.
function drawHeroFan() {
  const fan = $("hero-fan");
  fan.replaceChildren(...["AS", "KH", "QC", "JD"].map((code) => tableCard(code)));
  for (const card of fan.children) {
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
  }
}

async function refreshHome() {
  drawHeroFan();
  $("resume-game").hidden = !table.storedGameId();
  try {
    page.daily = await api.daily();
    page.dailyFetchedAt = Date.now();
  } catch {
    page.daily = null;
  }
  const words = t();
  const button = $("play-daily");
  if (page.daily && page.daily.finished) button.textContent = words.replayDaily;
  else if (page.daily && page.daily.game_id) button.textContent = words.resumeDaily;
  else button.textContent = words.playDaily;
  renderCountdown();
  clearInterval(page.countdown);
  page.countdown = setInterval(renderCountdown, 30_000);
}

async function startGame(mode, ranked = true) {
  location.hash = "#/table";
  try {
    await table.start("couyon", mode, ranked);
  } catch {
    $("prompt").textContent = t().errorGeneric;
  }
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

async function refreshBoard() {
  const words = t();
  $("board-daily").setAttribute("aria-pressed", String(page.board === "daily"));
  $("board-free").setAttribute("aria-pressed", String(page.board === "free"));
  $("day-picker").hidden = page.board !== "daily";
  if (page.board === "daily" && !page.boardDay) {
    try {
      page.daily = await api.daily();
      page.dailyFetchedAt = Date.now();
      page.boardDay = page.daily.day;
    } catch {
      page.boardDay = isoDay(new Date());
    }
  }
  const today = page.daily ? page.daily.day : null;
  $("day-next").disabled = page.boardDay === today;
  $("day-label").textContent = page.boardDay ? formatDay(page.boardDay) : "";
  const box = $("board");
  box.replaceChildren();
  let data;
  try {
    data = await api.leaderboard(page.board, page.boardDay);
  } catch {
    const error = document.createElement("p");
    error.textContent = words.errorGeneric;
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
  tableElement.createCaption().textContent =
    page.board === "daily" ? words.boardCaptionDaily(formatDay(page.boardDay)) : words.boardCaptionFree;
  const head = tableElement.createTHead().insertRow();
  for (const label of [words.rankHeader, words.nameHeader, words.scoreHeader, words.dealsHeader, words.whenHeader]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    head.append(th);
  }
  const body = tableElement.createTBody();
  const dateFormat = new Intl.DateTimeFormat(words.dateFormat, { dateStyle: "short", timeStyle: "short" });
  for (const entry of data.entries) {
    const row = body.insertRow();
    const rank = document.createElement("th");
    rank.scope = "row";
    rank.textContent = String(entry.rank);
    row.append(rank);
    row.insertCell().textContent = entry.name ?? words.anonymous;
    row.insertCell().textContent = String(entry.score);
    row.insertCell().textContent = String(entry.deals);
    const when = entry.finished_at ? new Date(entry.finished_at) : null;
    row.insertCell().textContent = when && !Number.isNaN(when.getTime()) ? dateFormat.format(when) : "";
  }
  box.append(tableElement);
}

// ---------------------------------------------------------------- settings

async function refreshSettings() {
  const form = $("settings-form");
  form.elements.language.value = currentLanguage();
  form.elements.speed.value = speed() === "instant" ? "fast" : speed();
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
    status.textContent = error.message && error.status === 422 ? error.message : t().errorGeneric;
  }
}

// ---------------------------------------------------------------- start

function wire() {
  $("new-game").addEventListener("click", () => startGame("free"));
  $("resume-game").addEventListener("click", () => {
    location.hash = "#/table";
  });
  $("play-daily").addEventListener("click", () => {
    const finished = page.daily && page.daily.finished;
    startGame("daily", !finished);
  });
  $("end-new-game").addEventListener("click", () => startGame("free"));
  $("table-new-game").addEventListener("click", () => startGame("free"));
  $("end-leaderboard").addEventListener("click", () => {
    const game = table.currentGame();
    page.board = game && game.mode === "daily" ? "daily" : "free";
    page.boardDay = game && game.day ? game.day : page.boardDay;
    $("end-dialog").close();
  });
  $("board-daily").addEventListener("click", () => {
    page.board = "daily";
    refreshBoard();
  });
  $("board-free").addEventListener("click", () => {
    page.board = "free";
    refreshBoard();
  });
  $("day-previous").addEventListener("click", () => {
    page.boardDay = shiftDay(page.boardDay, -1);
    refreshBoard();
  });
  $("day-next").addEventListener("click", () => {
    page.boardDay = shiftDay(page.boardDay, 1);
    refreshBoard();
  });
  const form = $("settings-form");
  form.addEventListener("submit", saveName);
  form.addEventListener("change", (event) => {
    if (event.target.name === "language") {
      setLanguage(event.target.value);
      table.rerender();
      showRoute({ moveFocus: false });
    } else if (event.target.name === "speed") {
      setSpeed(event.target.value);
    }
  });
  window.addEventListener("hashchange", () => showRoute());
  table.setUpTable();
}

applyStaticTexts();
applyPace();
wire();
showRoute({ moveFocus: false });
