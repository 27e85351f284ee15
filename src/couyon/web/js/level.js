// "Mon niveau" (#/level, issue 35): each game's rating and challenge performance, with the rating's curve as an
// SVG plot and, as its text alternative, a table of the same numbers (GET /api/ratings/me, docs/ratings.md).
import { addWords, currentLanguage, formatNumber, t } from "./i18n.js";
import { api } from "./api.js";
import { el, table } from "./clubs/dom.js";
import { choiceLabel, gameInfo, gameName } from "./games/index.js";
import { plot } from "./charts.js";
import levelWords from "./level-words.js";

addWords(levelWords);

/** A game's name as the page says it: tarot with its number of players. */
function nameOf(id) {
  const info = gameInfo(id);
  if (!info.choice) return gameName(id);
  const players = info.choice.values.find((value) => info.choice.api(value) === id);
  return `${gameName(id)}, ${choiceLabel(info.id, players)}`;
}

function number(value, provisional) {
  const words = t().level;
  return provisional ? `${value} (${words.provisional})` : String(value);
}

function gameSection(game) {
  const words = t().level;
  const name = nameOf(game.game);
  const facts = [];
  const rating = game.rating;
  facts.push(el("dt", {}, words.rating));
  facts.push(el("dd", {}, rating ? number(words.plusMinus(formatNumber(rating.rating), formatNumber(3 * rating.sigma)), rating.provisional) : words.none));
  facts.push(el("dt", {}, words.games), el("dd", {}, rating ? String(rating.games) : "0"));
  const challenge = game.challenge;
  facts.push(el("dt", {}, words.challenge));
  facts.push(
    el("dd", {}, challenge ? number(words.plusMinus(formatNumber(challenge.performance), formatNumber(challenge.interval)), challenge.provisional) : words.none),
  );
  facts.push(el("dt", {}, words.deals), el("dd", {}, challenge ? String(challenge.deals) : "0"));
  const section = el("section", { className: "level-game", "aria-labelledby": `level-${game.game}` });
  section.append(el("h2", { id: `level-${game.game}` }, name), el("dl", { className: "facts" }, ...facts));
  if (game.curve.length) {
    const dates = new Intl.DateTimeFormat(currentLanguage() === "fr" ? "fr-BE" : "en-GB", { dateStyle: "short", timeStyle: "short" });
    section.append(plot(game.curve.map((point) => point.rating), words.curveTitle(name), `level-plot-${game.game}`));
    section.append(
      table(
        words.curveTable(name),
        [words.when, words.after],
        game.curve.map((point) => [dates.format(new Date(point.at)), number(formatNumber(point.rating), point.provisional)]),
      ),
    );
  }
  return section;
}

/** Fill ``root`` with the person's numbers (read again on each visit: a game just finished counts). */
export async function showLevel(root) {
  const words = t().level;
  root.replaceChildren(el("p", { role: "status" }, words.loading));
  let answer;
  try {
    answer = await api.myRatings();
  } catch {
    root.replaceChildren(el("p", { role: "alert" }, words.error));
    return;
  }
  const parts = [el("p", {}, words.explain)];
  if (!answer.games.length) parts.push(el("p", {}, words.empty));
  parts.push(...answer.games.map(gameSection));
  root.replaceChildren(...parts);
}
