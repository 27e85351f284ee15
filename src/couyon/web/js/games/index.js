// The games the site offers, in the order the home page lists them (couyon first). A new
// game adds one entry here, its module and its words beside this file; nothing else names the
// games. This file imports no game: a game's module and words are loaded on demand (gameModule,
// loadWords), so the home page carries only these facts.
//
// Each entry: `id` (the API's "game"), `name` and `sentence` in French and English (the
// sentence says in one line what the game is), `fan` (four cards drawn on its home), `load`
// (imports the game's table module, see the interface in docs/web.md), `words` (imports the
// game's own words, joined to js/i18n.js's lookup when loaded),
// and `rules`, a fragment fetched when its rules page is first opened (null: the rules are in
// index.html).
// `review: true`: a finished game of it has a review (#/review/<id>, GET /api/games/{id}/review).
// A game with table options for its free games lists them in `options`: {name, values, default}; the
// option `level` (the simulated players' level) also names the free leaderboard shown.
// A game the API splits by a table choice (tarot: one API game per number of players) adds
// `choice`: {key (localStorage), values, default, api(value) → the API's game id, label(value)}.

import { addWords, currentLanguage } from "../i18n.js";

export const DEFAULT_GAME = "couyon";

// The level of a couyon table (either variant) or a tarot table: baseline players or the experts of the daily challenge.
const LEVEL = { name: "level", values: ["beginner", "expert"], default: "expert" };

export const GAMES = [
  {
    id: "couyon",
    name: { fr: "Couyon", en: "Couyon" },
    sentence: {
      fr: "Le couyon des cafés d'Ardenne : quatre cartes chacun, une carte retournée propose l'atout, on prend ou on passe.",
      en: "The couyon of Ardennes cafés: four cards each, a turned card offers trumps, you take or pass.",
    },
    fan: ["AS", "KH", "QC", "JD"],
    load: () => import("./couyon.js"),
    words: () => import("./couyon-words.js"),
    options: [LEVEL],
    traveller: true, // its deals are taken and made: the day's results compare them (GET /api/daily/results)
    rules: "/rules/couyon.html",
    review: true,
  },
  {
    id: "malmedy",
    name: { fr: "Le couyon de Malmedy", en: "Malmedy couyon" },
    sentence: {
      fr: "Cinq cartes chacun et quatre au blind que personne ne ramasse : le voisin de gauche du donneur nomme l'atout après trois cartes, la dame de trèfle est toujours atout, et qui tient la dame de pique peut annoncer mite.",
      en: "Five cards each and four in a blind that nobody wins: the player left of the dealer names trumps after three cards, the queen of clubs is always a trump, and whoever holds the queen of spades may call mite.",
    },
    fan: ["QC", "QS", "AH", "KH"],
    load: () => import("./malmedy.js"),
    words: () => import("./malmedy-words.js"),
    options: [LEVEL],
    traveller: true, // its deals are taken and made: the day's results compare them (GET /api/daily/results)
    rules: "/rules/malmedy.html",
    review: true,
  },
  {
    id: "coucou",
    name: { fr: "Coucou", en: "Coucou" },
    sentence: {
      fr: "De cinq à vingt autour de la table, une seule carte chacun : tu la gardes ou tu la changes avec ton voisin de droite. Un roi répond « Coucou ! », et la carte la plus basse coûte un jeton.",
      en: "Five to twenty round the table, one card each: keep it or swap it with your right-hand neighbour. A king answers “Coucou!”, and the lowest card costs a token.",
    },
    fan: ["KH", "AS", "9D", "QC"],
    load: () => import("./coucou.js"),
    words: () => import("./coucou-words.js"),
    traveller: true, // its coups are compared: the day's results count what seat 1 said and lost (GET /api/daily/results)
    rules: "/rules/coucou.html",
    // The table options of a free game, as GET /api/catalog lists them (the daily game has its own).
    options: [
      { name: "players", values: Array.from({ length: 16 }, (_, i) => i + 5), default: 8 },
      { name: "tokens", values: Array.from({ length: 10 }, (_, i) => i + 1), default: 3 },
      { name: "level", values: ["easy", "normal", "expert"], default: "expert" },
    ],
    review: true,
  },
  {
    // Méry's variant of coucou (rulings 20–24): the same table module and words, its own rules and boards.
    id: "as-qui-court",
    name: { fr: "As qui court", en: "As qui court" },
    sentence: {
      fr: "Le coucou de Méry : le donneur n'a qu'une carte et reçoit celle de son voisin, il ne change avec le talon que s'il vient de recevoir un as, et un roi se montre au lieu de dire « Coucou ! ».",
      en: "Méry's coucou: the dealer has one card and takes his neighbour's, he changes with the stock only when just handed an ace, and a king is shown instead of saying “Coucou!”.",
    },
    fan: ["AH", "KS", "2C", "7D"],
    load: () => import("./coucou.js"),
    words: () => import("./coucou-words.js"),
    traveller: true,
    rules: "/rules/as-qui-court.html",
    options: [
      { name: "players", values: Array.from({ length: 16 }, (_, i) => i + 5), default: 8 },
      { name: "tokens", values: Array.from({ length: 10 }, (_, i) => i + 1), default: 3 },
      { name: "level", values: ["easy", "normal", "expert"], default: "expert" },
    ],
    review: true,
  },
  {
    id: "tarot",
    name: { fr: "Tarot", en: "Tarot" },
    sentence: {
      fr: "Le tarot français à trois, quatre ou cinq : 78 cartes, des enchères de la petite à la garde contre, le chien, les bouts à garder et le Petit à mener au bout.",
      en: "French tarot for three, four or five: 78 cards, bids from petite to garde contre, the chien, the bouts to keep and the Petit to bring home in the last trick.",
    },
    fan: ["21T", "1T", "EX", "KH"],
    load: () => import("./tarot.js"),
    words: () => import("./tarot-words.js"),
    options: [LEVEL],
    traveller: true, // its deals are taken and made: the day's results compare them (GET /api/daily/results)
    rules: "/rules/tarot.html",
    choice: {
      key: "couyon.tarot.players",
      values: [3, 4, 5],
      default: 4,
      api: (players) => `tarot${players}`,
      label: { fr: (players) => `${players} joueurs`, en: (players) => `${players} players` },
    },
    review: true,
  },
];

const modules = new Map();
const words = new Map();

/** The catalogue entry of a game id, or of one of its API ids (``tarot4``); unknown ids are the default game. */
export function gameInfo(id) {
  return (
    GAMES.find((game) => game.id === id) ??
    GAMES.find((game) => game.choice && game.choice.values.some((value) => game.choice.api(value) === id)) ??
    GAMES[0]
  );
}

/** The page's game of an API game id: ``tarot4`` is the page's ``tarot``. */
export const pageGame = (id) => gameInfo(id).id;

/** The table choice of a game with one (tarot: the number of players), as last chosen. */
export function gameChoice(id) {
  const choice = gameInfo(id).choice;
  if (!choice) return null;
  try {
    const stored = Number(localStorage.getItem(choice.key));
    return choice.values.includes(stored) ? stored : choice.default;
  } catch {
    return choice.default;
  }
}

export function setGameChoice(id, value) {
  const choice = gameInfo(id).choice;
  if (!choice || !choice.values.includes(value)) return;
  try {
    localStorage.setItem(choice.key, String(value));
  } catch {
    // Without storage the choice lasts until the page is left.
  }
}

/** The API's game id for a page game now (its choice applied). */
export function apiGame(id) {
  const info = gameInfo(id);
  return info.choice ? info.choice.api(gameChoice(info.id)) : info.id;
}

/** The words of a choice's value (``4 joueurs``). */
export function choiceLabel(id, value) {
  return gameInfo(id).choice.label[currentLanguage()](value);
}

export function isGame(id) {
  return GAMES.some((game) => game.id === id);
}

/** A game's name in the current language. */
export function gameName(id) {
  return gameInfo(id).name[currentLanguage()];
}

/** A game's one-sentence description in the current language. */
export function gameSentence(id) {
  return gameInfo(id).sentence[currentLanguage()];
}

/**
 * Load a game's own words once and join them to the page's words (t()[game]); resolves when they
 * are there. A page that says a game's words (its home, leaderboard, results, review) awaits it first.
 */
export function loadWords(id) {
  const info = gameInfo(id);
  if (!words.has(info.id)) {
    const loading = info.words ? info.words().then((module) => addWords(module.default)) : Promise.resolve();
    // A failed load (the network) is tried again next time.
    words.set(
      info.id,
      loading.catch((error) => {
        words.delete(info.id);
        throw error;
      }),
    );
  }
  return words.get(info.id);
}

/** The table module of a game, imported once with its words. */
export function gameModule(id) {
  const info = gameInfo(id);
  if (!modules.has(info.id)) {
    modules.set(
      info.id,
      Promise.all([info.load(), loadWords(info.id)]).then(([module]) => module.default),
    );
  }
  return modules.get(info.id);
}
