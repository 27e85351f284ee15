// "Défier un ami" / "Challenge a friend": the link of a finished game's deals (from the end-of-game dialog), and the
// challenge's page (#/challenge/<id>): take it up, then both results side by side once one's own game is over.
import { addWords, currentLanguage, t } from "../i18n.js";
import { call, el, table, takerName } from "./dom.js";
import clubWords from "./words.js";

addWords(clubWords);

/** The button's words in the current language. */
export function challengeLabel() {
  return t().challenge.send;
}

/** The end-of-game dialog's link back to the tournament's or the challenge's page (``route``) it was played from. */
export function showReturn(box, route) {
  const words = t().challenge;
  box.replaceChildren(el("a", { href: route, className: "button" }, route.startsWith("#/tournament/") ? words.backTournament : words.backChallenge));
}

/** Make the challenge of ``game`` (a game answer) and show its link in ``box``. */
export async function sendChallenge(game, box) {
  const words = t().challenge;
  try {
    const made = await call("POST", "/api/challenges", { game_id: game.id });
    const link = new URL(made.link, location.href).href;
    const input = el("input", { id: "challenge-link", type: "text", readOnly: true, value: link });
    box.replaceChildren(el("label", { htmlFor: "challenge-link" }, words.linkReady), input);
    input.select();
  } catch (error) {
    box.textContent = error.message;
  }
}

export async function showChallenge(challengeId, heading, draw, status, fail, context) {
  const words = t().challenge;
  const path = `/api/challenges/${encodeURIComponent(challengeId)}`;
  const found = await call("GET", path);
  const parts = [el("p", {}, words.intro(found.names[currentLanguage()]))];
  const mine = found.players.find((player) => player.you);
  if (!mine || (!mine.sender && !mine.finished)) {
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
  if (!found.shown) parts.push(el("p", {}, words.waiting));
  else {
    const numbers = [...new Set(found.players.flatMap((player) => (player.lines ?? []).map((line) => line.deal ?? line.coup)))];
    const coups = found.players.some((player) => (player.lines ?? []).some((line) => "coup" in line));
    const outcome = (line) => {
      if (!line) return "–";
      if ("coup" in line) return `${line.card} ${line.said ?? ""}${line.lost ? " ✗" : ""}`.trim();
      const parts = [takerName(line.taker), line.contract, t().clubs.outcome[line.outcome] ?? line.outcome];
      if ("points" in line) parts.push(String(line.points));
      return parts.filter(Boolean).join(", ");
    };
    parts.push(
      table(
        words.caption,
        [words.playerHeader, words.scoreHeader, ...numbers.map((n) => (coups ? words.coupHeader(n) : words.dealHeader(n)))],
        found.players.map((player) => [
          (player.name ?? t().clubs.anonymous(player.tag)) + (player.you ? t().clubs.you : ""),
          player.finished ? String(player.score) : words.notFinished,
          ...numbers.map((n) => outcome((player.lines ?? []).find((line) => (line.deal ?? line.coup) === n))),
        ]),
      ),
    );
  }
  heading.textContent = words.title;
  draw(...parts);
}
