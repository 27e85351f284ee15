// The clubs' pages (#/clubs, #/clubs/join/<link>, #/club/<id>, #/tournament/<id>, #/challenge/<id>): loaded with
// import() by js/main.js on the first visit of one of them. Every name and text from the server is inserted as
// text, never as HTML. ``context`` is main's: { routeFor, playGame(answer) }.
import { addWords, currentLanguage, t } from "../i18n.js";
import { call, el, table, takerName } from "./dom.js";
import { showChallenge } from "./challenge.js";
import { datePicker } from "./date-picker.js";
import clubWords from "./words.js";

addWords(clubWords);

/** The club pages' look (css/clubs.css), asked for as this module loads: the page is drawn once it applies. */
const styled = new Promise((resolve) => {
  const link = el("link", { rel: "stylesheet", href: "/css/clubs.css" });
  link.addEventListener("load", resolve);
  link.addEventListener("error", resolve); // Unstyled rather than never drawn.
  document.head.append(link);
});

let catalog = null;

async function games() {
  catalog = catalog ?? (await call("GET", "/api/catalog")).games;
  return catalog;
}

const nameOf = (game) => (catalog?.find((entry) => entry.id === game)?.names[currentLanguage()] ?? game);
const who = (row) => (row.name ?? t().clubs.anonymous(row.tag ?? row.entrant)) + (row.you ? t().clubs.you : "");
const when = (iso) =>
  new Date(iso).toLocaleString(t().dateFormat, {
    dateStyle: "medium",
    timeStyle: "short",
  });

/** Show the clubs' page that ``path`` (the fragment without ``#/``) names, in ``root``. */
export async function showClubs(root, heading, path, context) {
  await styled;
  const words = t().clubs;
  const [first, second, third] = path.split("/");
  const status = el("p", { role: "status", className: "clubs-status" });
  const draw = (...children) => root.replaceChildren(...children, status);
  const fail = (error) => {
    status.textContent = error?.message && error.status ? error.message : words.error;
  };
  heading.textContent = words.title;
  try {
    await games();
    if (first === "clubs" && second === "join" && third) {
      const club = await call("POST", "/api/clubs/join", { code: third });
      location.hash = `#/club/${club.id}`;
      return;
    }
    if (first === "club" && second) return await showClub(second, heading, draw, status, fail);
    if (first === "tournament" && second) return await showTournament(second, heading, draw, status, fail, context);
    if (first === "challenge" && second) return await showChallenge(second, heading, draw, status, fail, context);
    await showList(draw, fail);
  } catch (error) {
    draw();
    fail(error);
  }
}

async function showList(draw, fail) {
  const words = t().clubs;
  const { clubs } = await call("GET", "/api/clubs");
  const list = clubs.length
    ? el(
        "ul",
        {},
        ...clubs.map((club) =>
          el("li", {}, el("a", { href: `#/club/${club.id}` }, club.name), ` (${words.role[club.role]})`),
        ),
      )
    : el("p", {}, words.none);
  const create = form(words.create, [field("club-name", words.clubName, { maxLength: 24, required: true })], async (data) => {
    const club = await call("POST", "/api/clubs", { name: data.get("club-name") });
    location.hash = `#/club/${club.id}`;
  }, fail);
  const join = form(
    words.join,
    [field("club-code", words.code, { maxLength: 40, required: true, autocomplete: "off" }, words.codeHelp)],
    async (data) => {
      const club = await call("POST", "/api/clubs/join", { code: data.get("club-code") });
      location.hash = `#/club/${club.id}`;
    },
    fail,
  );
  draw(
    el("p", {}, words.intro),
    el("section", { className: "panel", "aria-labelledby": "clubs-mine" }, el("h2", { id: "clubs-mine" }, words.mine), list),
    create,
    join,
  );
}

/** A form in a panel: its heading and submit button both say ``title``; ``submit`` gets its FormData. */
function form(title, fields, submit, fail, id = title) {
  const headingId = `form-${id.replace(/\W+/g, "-")}`;
  const element = el(
    "form",
    { className: "panel clubs-form", "aria-labelledby": headingId },
    el("h2", { id: headingId }, title),
    ...fields,
    el("button", { type: "submit", className: "button primary" }, title),
  );
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await submit(new FormData(element));
    } catch (error) {
      fail(error);
    }
  });
  return element;
}

function field(name, label, attributes = {}, help = null) {
  const input = el("input", { id: `field-${name}`, name, type: "text", ...attributes });
  const parts = [el("label", { htmlFor: `field-${name}` }, label), input];
  if (help) {
    input.setAttribute("aria-describedby", `help-${name}`);
    parts.push(el("p", { id: `help-${name}`, className: "field-help" }, help));
  }
  return el("p", { className: "field" }, ...parts);
}

function select(name, label, values, chosen) {
  const element = el(
    "select",
    { id: `field-${name}`, name },
    ...values.map(([value, text]) => el("option", { value, selected: value === chosen }, text)),
  );
  return [el("p", { className: "field" }, el("label", { htmlFor: `field-${name}` }, label), element), element];
}

async function showClub(clubId, heading, draw, status, fail) {
  const words = t().clubs;
  const club = await call("GET", `/api/clubs/${encodeURIComponent(clubId)}`);
  const act = async (method, path, body) => {
    try {
      await call(method, `/api/clubs/${encodeURIComponent(clubId)}${path}`, body);
      await showClub(clubId, heading, draw, status, fail);
      status.textContent = words.done;
    } catch (error) {
      fail(error);
    }
  };
  const manage = (member) => {
    const name = who(member);
    const buttons = [];
    const button = (text, run) => {
      const element = el("button", { type: "button", className: "button" }, text);
      element.addEventListener("click", run);
      buttons.push(element);
    };
    if (member.you && member.role !== "creator") button(words.leave, () => act("DELETE", `/members/${member.key}`));
    if (!member.you && club.manager && member.role === "member") button(words.remove(name), () => act("DELETE", `/members/${member.key}`));
    if (!member.you && club.role === "creator") {
      if (member.role === "manager") button(words.remove(name), () => act("DELETE", `/members/${member.key}`));
      button(member.role === "manager" ? words.makeMember(name) : words.makeManager(name), () =>
        act("PUT", `/members/${member.key}/role`, { role: member.role === "manager" ? "member" : "manager" }),
      );
      button(words.handOver(name), () => act("POST", "/hand-over", { member: member.key }));
    }
    return el("div", { className: "button-row" }, ...buttons);
  };
  const members = table(
    words.membersCaption,
    [words.nameHeader, words.roleHeader, words.actionsHeader],
    club.members.map((member) => [who(member), words.role[member.role], manage(member)]),
  );
  const parts = [
    el("p", {}, words.shareCode(club.code)),
    el("p", {}, el("a", { href: club.link }, words.shareLink)),
    el("section", { className: "panel", "aria-labelledby": "club-members" }, el("h2", { id: "club-members" }, words.members), members),
  ];
  if (club.manager) {
    parts.push(
      form(words.rename, [field("club-rename", words.newName, { maxLength: 24, required: true, value: club.name })], (data) =>
        act("PUT", "", { name: data.get("club-rename") }), fail),
    );
  }
  const daily = el("section", { className: "panel", "aria-labelledby": "club-daily" }, el("h2", { id: "club-daily" }, words.daily));
  const [gameField, gameSelect] = select("daily-game", words.game, catalog.map((game) => [game.id, game.names[currentLanguage()]]), "couyon");
  const board = el("div");
  const drawBoard = async () => {
    const answer = await call("GET", `/api/clubs/${encodeURIComponent(clubId)}/daily?game=${encodeURIComponent(gameSelect.value)}`);
    const days = answer.days.map((day) => new Date(`${day}T12:00:00Z`).toLocaleDateString(t().dateFormat, { weekday: "short", day: "numeric" }));
    board.replaceChildren(
      table(
        words.dailyCaption(nameOf(answer.game)),
        [words.nameHeader, ...days, words.weekHeader],
        answer.members.map((row) => [who(row), ...row.days.map((score) => (score === null ? "–" : String(score))), String(row.week)]),
      ),
      ...(answer.today_shown ? [] : [el("p", {}, words.dailyHidden)]),
    );
  };
  gameSelect.addEventListener("change", () => drawBoard().catch(fail));
  daily.append(gameField, board);
  await drawBoard();
  parts.push(daily);
  const { tournaments } = await call("GET", `/api/clubs/${encodeURIComponent(clubId)}/tournaments`);
  parts.push(
    el(
      "section",
      { className: "panel", "aria-labelledby": "club-tournaments" },
      el("h2", { id: "club-tournaments" }, words.tournaments),
      tournaments.length
        ? el(
            "ul",
            {},
            ...tournaments.map((item) =>
              el(
                "li",
                {},
                el("a", { href: `#/tournament/${item.id}` }, item.name),
                ` — ${words.summary(nameOf(item.game), item.count, words.state[item.state], item.deals)}, ${words.when(when(item.opens_at), when(item.closes_at))}`,
              ),
            ),
          )
        : el("p", {}, words.noTournament),
    ),
  );
  if (club.manager) parts.push(scheduleForm(clubId, club.deals_per_game, fail));
  parts.push(el("p", {}, el("a", { href: "#/clubs" }, words.allClubs)));
  heading.textContent = club.name;
  draw(...parts);
}

function scheduleForm(clubId, dealsPerGame, fail) {
  const words = t().clubs;
  const [gameField, gameSelect] = select("t-game", words.tournamentGame, catalog.map((game) => [game.id, game.names[currentLanguage()]]), "couyon");
  const levels = () => catalog.find((game) => game.id === gameSelect.value)?.options.find((option) => option.name === "level");
  const [levelField, levelSelect] = select("t-level", words.level, [], "");
  const fillLevels = () => {
    const rule = levels();
    levelSelect.replaceChildren(...(rule ? rule.values.map((value) => el("option", { value, selected: value === rule.default }, t().levelNames[value] ?? value)) : []));
  };
  // A game whose every game plays the same number of deals (tarot: as many as players; couyon and Malmedy: games of
  // one deal in such a tournament) can be given its length in deals: the server makes it that many games' worth.
  const [unitField, unitSelect] = select("t-unit", words.lengthIn, [["games", words.unit.games], ["deals", words.unit.deals]], "games");
  const countInput = el("input", { id: "field-t-count", name: "t-count", type: "number", min: 1, max: 20, value: 3, required: true });
  const countLabel = el("label", { htmlFor: "field-t-count" }, words.count);
  const perGame = () => dealsPerGame[gameSelect.value] ?? null;
  let shownStep = 1; // Deals per unit of the field's value: 1 while it counts games.
  const fillLength = () => {
    const deals = perGame();
    unitField.hidden = deals === null;
    if (deals === null) unitSelect.value = "games";
    const step = unitSelect.value === "deals" ? deals : 1;
    // The same number of games in the new unit (3 games are 12 deals at tarot à 4, and back).
    const games = Math.min(20, Math.max(1, Math.round(Number(countInput.value) / shownStep) || 1));
    shownStep = step;
    countLabel.textContent = unitSelect.value === "deals" ? words.dealCount : words.count;
    countInput.min = String(step);
    countInput.step = String(step);
    countInput.max = String(20 * step);
    countInput.value = String(games * step);
  };
  gameSelect.addEventListener("change", () => {
    fillLevels();
    fillLength();
  });
  unitSelect.addEventListener("change", fillLength);
  fillLevels();
  fillLength();
  const now = new Date();
  const opens = datePicker("t-opens", words.opens, now);
  const closes = datePicker("t-closes", words.closes, new Date(now.getTime() + 86400000));
  const weekly = el("input", { id: "field-t-weekly", name: "t-weekly", type: "checkbox" });
  return form(
    words.schedule,
    [
      field("t-name", words.tournamentName, { maxLength: 24, required: true }),
      gameField,
      levelField,
      unitField,
      el("p", { className: "field" }, countLabel, countInput),
      opens.element,
      closes.element,
      el("p", { className: "field" }, weekly, el("label", { htmlFor: "field-t-weekly" }, words.weekly)),
    ],
    async (data) => {
      const body = {
        name: data.get("t-name"),
        game: data.get("t-game"),
        [unitSelect.value === "deals" ? "deals" : "count"]: Number(data.get("t-count")),
        opens_at: opens.value().toISOString(),
        closes_at: closes.value().toISOString(),
        weekly: weekly.checked,
      };
      if (levelSelect.value) body.options = { level: levelSelect.value };
      const made = await call("POST", `/api/clubs/${encodeURIComponent(clubId)}/tournaments`, body);
      location.hash = `#/tournament/${made.id}`;
    },
    fail,
    "schedule",
  );
}

async function showTournament(tournamentId, heading, draw, status, fail, context) {
  const words = t().clubs;
  const path = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
  const item = await call("GET", path);
  const done = item.games.filter((game) => game.finished).length;
  const parts = [
    el("p", {}, `${words.summary(nameOf(item.game), item.count, words.state[item.state], item.deals)}. ${words.when(when(item.opens_at), when(item.closes_at))}.`),
    el("p", {}, done === item.count ? words.allPlayed : words.progress(done, item.count)),
  ];
  if (item.state === "open" && done < item.count) {
    const play = el("button", { type: "button", className: "button primary" }, words.play);
    play.addEventListener("click", async () => {
      try {
        await context.playGame(await call("POST", `${path}/play`));
      } catch (error) {
        fail(error);
      }
    });
    parts.push(el("p", {}, play));
  }
  if (item.seeds) parts.push(el("p", {}, words.seeds));
  let results = null;
  try {
    results = await call("GET", `${path}/results`);
  } catch (error) {
    if (error.status !== 403) throw error;
    parts.push(el("p", {}, words.hidden));
  }
  if (results) parts.push(...resultsParts(item, results));
  if (item.weekly) {
    const series = await call("GET", `/api/clubs/${encodeURIComponent(item.club)}/series/${encodeURIComponent(item.series)}`);
    if (series.members.length) {
      parts.push(
        el("h2", {}, words.series),
        table(
          words.seriesCaption,
          [words.nameHeader, words.playedHeader, words.wonHeader, words.bestHeader],
          series.members.map((row) => [who(row), String(row.played), String(row.won), String(row.best_rank)]),
        ),
      );
    }
  }
  parts.push(el("p", {}, el("a", { href: `#/club/${item.club}` }, words.back)));
  heading.textContent = item.name;
  draw(...parts);
}

function resultsParts(item, results) {
  const words = t().clubs;
  const headers = [words.rankHeader, words.nameHeader, words.totalHeader, words.gamesHeader];
  if (results.deal_based) headers.push(words.duplicateHeader);
  const standings = table(
    words.standingsCaption(item.name),
    headers,
    results.standings.map((row) => [
      String(row.rank),
      who(row),
      String(row.total),
      String(row.games),
      ...(results.deal_based ? [row.duplicate === null ? "–" : String(row.duplicate)] : []),
    ]),
  );
  const parts = [el("h2", {}, words.standings), standings];
  const entrants = new Map(results.standings.map((row) => [row.entrant, row]));
  if (results.deals.length) {
    // Each deal's results are asked when it is opened (a page of them at a time): a big tournament's every deal
    // at once would be megabytes.
    parts.push(el("h2", {}, words.deals), el("p", {}, words.dealsHelp));
    const list = el("ul", { className: "clubs-deals" });
    for (const deal of results.deals) list.append(el("li", {}, dealOpener(item, deal, entrants)));
    parts.push(list);
  }
  return parts;
}

/** A button that shows one deal's results under it, a page at a time ("more" fetches the next one). */
function dealOpener(item, deal, entrants) {
  const words = t().clubs;
  const button = el("button", { type: "button", className: "button", "aria-expanded": "false" }, words.dealOpen(deal.game, deal.deal, deal.entrants));
  const region = el("div", { hidden: true });
  const status = el("p", { role: "status" });
  const rows = [];
  let shown = false;
  let next = 0;
  const load = async () => {
    const path = `/api/tournaments/${encodeURIComponent(item.id)}/deals/${deal.game}/${deal.deal}?offset=${next}`;
    const page = await call("GET", path);
    rows.push(...page.results);
    next = page.next_offset;
    region.replaceChildren(dealTable(deal, rows, entrants));
    if (next !== null) {
      const more = el("button", { type: "button", className: "button" }, words.moreResults(rows.length, page.entrants));
      more.addEventListener("click", () => load().catch((error) => (status.textContent = error.message ?? words.error)));
      region.append(el("p", {}, more));
    }
  };
  button.addEventListener("click", async () => {
    shown = !shown;
    button.setAttribute("aria-expanded", String(shown));
    region.hidden = !shown;
    if (shown && !rows.length) {
      try {
        await load();
      } catch (error) {
        status.textContent = error?.message && error.status ? error.message : words.error;
      }
    }
  });
  return el("div", {}, button, region, status);
}

function dealTable(deal, rows, entrants) {
  const words = t().clubs;
  const hasContract = rows.some((row) => "contract" in row);
  const hasPoints = rows.some((row) => "points" in row);
  return table(
    words.dealCaption(deal.game, deal.deal),
    [
      words.nameHeader,
      words.takerHeader,
      ...(hasContract ? [words.contractHeader] : []),
      ...(hasPoints ? [words.pointsHeader] : []),
      words.outcomeHeader,
      words.percentHeader,
    ],
    rows.map((row) => [
      who(entrants.get(row.entrant) ?? row),
      takerName(row.taker),
      ...(hasContract ? [row.contract ?? "–"] : []),
      ...(hasPoints ? [String(row.points)] : []),
      words.outcome[row.outcome] ?? row.outcome ?? "–",
      String(row.percent),
    ]),
  );
}
