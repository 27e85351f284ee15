// The couyon de Malmedy's words, French and English: its table (js/games/malmedy.js) and its home.
// Registered into the page's words (t().malmedy) when the game is first needed (js/games/index.js, loadWords).

export default {
  fr: {
    malmedy: {
      suitTitle: { C: "Trèfle", D: "Carreau", H: "Cœur", S: "Pique" },
      trumpGroup: "Choisis l'atout",
      mite: "Annoncer mite",
      miteHelp: "Ta dame de pique devient un atout, juste sous l'as. Le camp qui gagne la donne efface une ligne de plus.",
      contra: "Contra",
      contraHelp: "Tu paries que ton camp gagnera la donne : une ligne de plus en jeu.",
      recontra: "Recontra",
      recontraHelp: "Tu maintiens ta mite : encore une ligne de plus en jeu.",
      pass: "Passer",
      promptTrump: "Choisis l'atout d'après tes trois premières cartes.",
      promptContra: (seat) => `${seat} annonce mite. Contra ou passe ?`,
      promptRecontra: (seat) => `${seat} dit contra. Recontra ou passe ?`,
      // [question, detail]: a phone shows the question beside the mite's button, and says the detail.
      promptMite: ["À toi de jouer.", "Avec ta dame de pique, tu peux d'abord annoncer mite."],
      yourTurnTrump: "À toi : choisis l'atout.",
      yourTurnContra: "À toi : contra ou passe ?",
      yourTurnRecontra: "À toi : recontra ou passe ?",
      yourTurnMite: "À toi de jouer. Tu peux annoncer mite avant ta carte.",
      chooserChip: (chosen) => (chosen ? "choix" : "choisit"),
      miteChip: "mite",
      contraChip: "contra",
      recontraChip: "recontra",
      saidMite: "Mite\u00a0!",
      saidContra: "Contra\u00a0!",
      saidRecontra: "Recontra\u00a0!",
      saidPass: "Passe",
      blindLabel: "Le blind : quatre cartes cachées, qui ne comptent pour personne",
      blindCaption: "Blind",
      choosing: (seat, isYou) => (isYou ? "À toi de choisir l'atout" : `${seat} choisit l'atout…`),
      sayTrump: (seat, suit, isYou) => (isYou ? `Tu choisis l'atout : ${suit}.` : `${seat} choisit l'atout : ${suit}.`),
      sayMite: (seat, isYou) => (isYou ? "Tu annonces mite." : `${seat} annonce mite.`),
      sayAnswer: (seat, answer, isYou) =>
        answer === "pass"
          ? isYou
            ? "Tu passes."
            : `${seat} passe.`
          : isYou
            ? `Tu dis ${answer}.`
            : `${seat} dit ${answer}.`,
      sayDealStart: (number, dealer, chooser, isYou) =>
        `Donne ${number}. ${dealer} distribue ; ${isYou ? "tu choisiras" : `${chooser} choisira`} l'atout.`,
      factChooser: "Atout choisi par",
      factCalls: "Annonces",
      noCalls: "aucune",
      callsMite: (seat) => `mite (${seat})`,
      factStake: "Enjeu",
      stake: (n) => `${n} ligne${n > 1 ? "s" : ""}, une de plus au capot`,
      factTricks: "Plis",
      made: (seat, suit) => `${seat} a choisi ${suit} et son camp gagne la donne.`,
      failed: (seat, suit) => `${seat} a choisi ${suit} mais son camp perd la donne : une couille pour lui.`,
      capot: (team) => (team === "NS" ? "Capot : vous avez fait les cinq plis." : "Capot : Ouest et Est ont fait les cinq plis."),
      miteSaid: (seat, contra) =>
        `Mite de ${seat}${contra === 2 ? ", contra et recontra" : contra === 1 ? ", contra" : ", sans contra"}.`,
      tricksLine: (us, them) => `Plis : nous ${us}, eux ${them}.`,
    },
  },
  en: {
    malmedy: {
      suitTitle: { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" },
      trumpGroup: "Name trumps",
      mite: "Call mite",
      miteHelp: "Your queen of spades becomes a trump, just below the ace. The team that wins the deal erases one more line.",
      contra: "Contra",
      contraHelp: "You bet your team will win the deal: one more line at stake.",
      recontra: "Recontra",
      recontraHelp: "You stand by your mite: yet another line at stake.",
      pass: "Pass",
      promptTrump: "Name trumps from your first three cards.",
      promptContra: (seat) => `${seat} calls mite. Contra or pass?`,
      promptRecontra: (seat) => `${seat} says contra. Recontra or pass?`,
      promptMite: ["Your turn.", "With the queen of spades you may call mite first."],
      yourTurnTrump: "Your turn: name trumps.",
      yourTurnContra: "Your turn: contra or pass?",
      yourTurnRecontra: "Your turn: recontra or pass?",
      yourTurnMite: "Your turn to play. You may call mite before your card.",
      chooserChip: (chosen) => (chosen ? "chose" : "chooses"),
      miteChip: "mite",
      contraChip: "contra",
      recontraChip: "recontra",
      saidMite: "Mite!",
      saidContra: "Contra!",
      saidRecontra: "Recontra!",
      saidPass: "Pass",
      blindLabel: "The blind: four hidden cards that count for nobody",
      blindCaption: "Blind",
      choosing: (seat, isYou) => (isYou ? "Your turn to name trumps" : `${seat} is naming trumps…`),
      sayTrump: (seat, suit, isYou) => (isYou ? `You name ${suit} as trumps.` : `${seat} names ${suit} as trumps.`),
      sayMite: (seat, isYou) => (isYou ? "You call mite." : `${seat} calls mite.`),
      sayAnswer: (seat, answer, isYou) =>
        answer === "pass"
          ? isYou
            ? "You pass."
            : `${seat} passes.`
          : isYou
            ? `You say ${answer}.`
            : `${seat} says ${answer}.`,
      sayDealStart: (number, dealer, chooser, isYou) =>
        `Deal ${number}. ${dealer} deals; ${isYou ? "you will name" : `${chooser} will name`} trumps.`,
      factChooser: "Trumps named by",
      factCalls: "Calls",
      noCalls: "none",
      callsMite: (seat) => `mite (${seat})`,
      factStake: "Stake",
      stake: (n) => `${n} line${n > 1 ? "s" : ""}, one more for a capot`,
      factTricks: "Tricks",
      made: (seat, suit) => `${seat} named ${suit} and that team wins the deal.`,
      failed: (seat, suit) => `${seat} named ${suit} but that team loses the deal: a couille for it.`,
      capot: (team) => (team === "NS" ? "Capot: you took all five tricks." : "Capot: West and East took all five tricks."),
      miteSaid: (seat, contra) =>
        `Mite by ${seat}${contra === 2 ? ", contra and recontra" : contra === 1 ? ", contra" : ", no contra"}.`,
      tricksLine: (us, them) => `Tricks: us ${us}, them ${them}.`,
    },
  },
};
