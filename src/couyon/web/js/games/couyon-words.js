// Couyon's own words, French and English: what only its table (js/games/couyon.js) says, the
// bidding moment (take or pass, the offered card), its deal summary and its slate's hole. They join
// the page's words at the top (t().take…, as they always were) when the game is first needed
// (js/games/index.js, loadWords); what couyon shares with the other games stays in js/i18n.js.

export default {
  fr: {
    saidTake: "Prend",
    proposalLabel: (card) => `Retourne : ${card}`,
    trumpProposed: (suit) => `Atout proposé : ${suit}`,
    proposalCount: (k) => `Proposition ${k} sur 8`,
    takeHelp:
      "Prendre : cette couleur devient l'atout et ton camp, Nord avec toi, s'engage à faire plus de points qu'Ouest et Est ; sinon il reprend une ligne et l'autre camp en efface une.",
    passHelp:
      "Passer : la parole va au joueur suivant ; si les quatre passent, la carte suivante du talon est retournée et propose sa couleur.",
    factTaker: "Preneur",
    stakeLines: (n) => (n === 1 ? "1 ligne" : `${n} lignes`),
    noTakerYet: "personne",
    chalkHole: "La craie est dans le trou : cette donne compte double (deux lignes).",
    sayProposal: (card) => `Personne n'a pris. Nouvelle retourne : ${card}.`,
    sayYourTurnBid: "À toi : prendre ou passer ?",
    outcomeMade: (taker) => `${taker} a pris et gagne la donne.`,
    outcomeFailed: (taker) => `${taker} a pris et perd la donne.`,
    outcomeTie: "Égalité parfaite : la craie est dans le trou. La prochaine donne compte double.",
    takerWas: (taker, suit) => `Preneur : ${taker}, atout ${suit}.`,
    doubled: "Donne double.",
  },
  en: {
    saidTake: "Takes",
    proposalLabel: (card) => `Turned up: ${card}`,
    trumpProposed: (suit) => `Trumps offered: ${suit}`,
    proposalCount: (k) => `Offer ${k} of 8`,
    takeHelp:
      "Take: this suit becomes trumps and your side, North with you, must win more points than West and East; otherwise you add a line and they rub one out.",
    passHelp:
      "Pass: the next player decides; if all four pass, the next talon card is turned up and offers its suit.",
    factTaker: "Taker",
    stakeLines: (n) => (n === 1 ? "1 line" : `${n} lines`),
    noTakerYet: "nobody",
    chalkHole: "The chalk is in the hole: this deal counts double (two lines).",
    sayProposal: (card) => `Nobody took. Next card turned up: ${card}.`,
    sayYourTurnBid: "Your turn: take or pass?",
    outcomeMade: (taker) => `${taker} took and wins the deal.`,
    outcomeFailed: (taker) => `${taker} took and loses the deal.`,
    outcomeTie: "A perfect tie: the chalk is in the hole. The next deal counts double.",
    takerWas: (taker, suit) => `Taker: ${taker}, ${suit} trumps.`,
    doubled: "Double stake.",
  },
};
