// The games the site offers, in the order the home page lists them (couyon first). A new
// game adds one entry here and one module beside this file; nothing else names the games.
//
// Each entry: `id` (the API's "game"), `name` and `sentence` in French and English (the
// sentence says in one line what the game is), `fan` (four cards drawn on its home), `load`
// (imports the game's table module, see the interface in ../table.js), and `rules`, a
// fragment fetched when its rules page is first opened (null: the rules are in index.html).
// A game with table options for its free games (coucou) lists them in `options`: {name, values, default}.

import { currentLanguage } from "../i18n.js";

export const DEFAULT_GAME = "couyon";

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
    rules: null,
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
    rules: "/rules/malmedy.html",
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
    rules: "/rules/coucou.html",
    // The table options of a free game, as GET /api/catalog lists them (the daily game has its own).
    options: [
      { name: "players", values: Array.from({ length: 16 }, (_, i) => i + 5), default: 8 },
      { name: "tokens", values: Array.from({ length: 10 }, (_, i) => i + 1), default: 3 },
      { name: "level", values: ["easy", "normal", "expert"], default: "expert" },
    ],
  },
];

const modules = new Map();

/** The catalogue entry of a game id (unknown ids are the default game). */
export function gameInfo(id) {
  return GAMES.find((game) => game.id === id) ?? GAMES[0];
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

/** The table module of a game, imported once. */
export function gameModule(id) {
  const info = gameInfo(id);
  if (!modules.has(info.id)) modules.set(info.id, info.load().then((module) => module.default));
  return modules.get(info.id);
}
