// Coucou's words, French and English: its table (js/games/coucou.js), its home, its day's results and its
// review (t().review.coucou). Registered into the page's words (t().coucou) when the game is first needed
// (js/games/index.js, loadWords).
import { ordinalEn } from "../i18n.js";

const words = {
  fr: {
    review: {
      coucou: {
        summary: (won, place, players, score) =>
          won ? `Partie gagnée : ${score} points.` : `Tu finis ${place}e sur ${players} : ${score} points.`,
        explain:
          "Pour chaque coup où tu avais une carte\u00a0: ce que tu as dit, et ce que l'expert aurait dit à ta place, avec ce que tu savais à ce moment. Sa règle\u00a0: garder une carte assez haute pour le nombre de joueurs en jeu, et garder quand ton voisin de gauche vient de te passer une carte plus haute. Puis l'abattage, comme la table l'a vu.",
        revealed:
          "Pour chacun de tes choix, tu vois aussi ce que l'autre choix aurait donné, la suite du coup jouée de la même façon par les joueurs simulés.",
        hidden:
          "C'est un défi du jour : ce que l'autre choix aurait donné sera montré quand la journée sera finie, à minuit à Bruxelles.",
        differences: (n) =>
          n === 0 ? "Tu as toujours choisi comme l'expert." : `Tu as choisi autrement que l'expert ${n === 1 ? "une fois" : `${n} fois`}.`,
        coupsLabel: "Tes coups",
        coupTitle: (n) => `Coup ${n}`,
        youDealt: "Tu donnais : le donneur ne parle pas, tu n'avais rien à choisir.",
        youDealtAqc: "Tu donnais, et ton voisin ne t'a pas passé d'as : tu n'avais rien à choisir.",
        kingsShown: (names) => `Rois abattus : ${names}.`,
        youSaid: (card, said, outcome) =>
          `Tu avais ${card} et tu as dit « ${said} »${
            {
              keep: "",
              exchange: " : échange avec ton voisin de droite",
              coucou: " : ton voisin avait un roi, « Coucou ! », tu gardes ta carte",
              stock: " : tu as pris la carte du talon",
              "stock-king": " : le talon montrait un roi, tu gardes ta carte",
              "king-shown": " : ton voisin a abattu son roi, tu gardes ta carte",
            }[outcome]
          }.`,
        expertToo: "L'expert aurait fait le même choix.",
        notExperts: "Pas le choix de l'expert",
        expertSaid: (said) => `L'expert aurait dit « ${said} ».`,
        lost: (lost) => (lost ? "Tu as perdu un jeton à ce coup." : "Tu n'as pas perdu de jeton à ce coup."),
        other: (said, card, lost) =>
          `Avec « ${said} », tu aurais fini avec ${card} et ${lost ? "perdu un jeton" : "gardé tes jetons"}.`,
        showdownTitle: "L'abattage",
        showdownLabel: (n) => `Les cartes à l'abattage du coup ${n}`,
        stock: (card) => `Le talon retourné : ${card}.`,
        lowest: (rank, losers) => `La plus basse : ${rank}. Perd un jeton : ${losers}.`,
        allEqual: "Toutes les cartes ont la même hauteur : personne ne perd de jeton.",
      },
    },
    coucou: {
      // As qui court (the same table, js/games/coucou.js, with Méry's rules): what differs.
      aqc: {
        name: "As qui court",
        changeStock: "Changer avec le talon",
        dealerNote: "Tu donnes : tu ne parles que si ton voisin de gauche te passe un as. Tu pourras alors le changer avec le talon.",
        dealerTurn: (card) =>
          `À toi, donneur : ton voisin de gauche t'a passé ${card}. Garder, ou changer avec le talon ? Touche G pour garder, C pour changer avec le talon.`,
        promptDealer: (card) => `Tu as reçu ${card}. Tu le gardes, ou tu changes avec la carte du talon ?`,
        promptDealerLeft: (card, name) => `Tu as ${card}. Tu gardes ta carte, ou tu changes avec ${name}, le donneur ?`,
        yourTurn: (card) => `À toi : tu as ${card}. Garder, ou changer avec ton voisin ? Touche G pour garder, C pour changer.`,
        keysDealer: "Au clavier : G pour garder, C pour changer avec le talon.",
        shownKing: (card) => `${card}, abattu : tout le monde le voit`,
        kingShownBanner: (name, card, you) => (you ? `Tu abats ton roi : ${card}.` : `${name} abat son roi : ${card}.`),
        sayKingShown: (name, holder, card, you, kingYou) =>
          kingYou
            ? `${name} veut changer avec toi. Tu abats ton roi, ${card} : ${name} garde sa carte.`
            : `${you ? "Tu veux" : `${name} veut`} changer avec ${holder}, qui abat son roi, ${card} : ${you ? "tu gardes ta carte" : `${name} garde sa carte`}.`,
        saidKing: "Roi abattu",
        rulesLink: "Règles et conseils de l'as qui court",
        shareText: (day, place, n, score, coups) =>
          `As qui court, défi du ${day} : ${place === 1 ? "gagné" : `${place}e sur ${n}`}, ${score} points, ${coups} coups. Couyon`,
      },
      freeText: "Choisis le nombre de joueurs, leurs jetons et le niveau des joueurs simulés, puis installe-toi.",
      dailyNote: "Huit joueurs, trois jetons chacun, joueurs simulés experts.",
      dailyRules: "Un seul essai classé par jour. Ta place fait ton score, et à place égale, tenir plus de coups rapporte plus. À score égal, celui qui a gagné en moins de coups passe devant, puis celui qui a fini le premier. Le défi change à minuit, heure de Bruxelles.",
      dealsHeader: "Coups tenus",
      // The day's results and statistics count the coups seat 1 lasted where other games count deals, and the
      // traveller goes coup by coup (js/returning.js, wordsOf).
      back: {
        you: (score, coups, place, players) => `Toi : ${score} points, ${coups} coups tenus, ${place} sur ${players}.`,
        dealsCaption: "Combien de coups les joueurs ont tenu",
        travellerTitle: "Coup par coup",
        travellerIntro:
          "Le coup d'un numéro sort du même mélange dans toutes les parties du jour, mais qui reçoit quelle carte dépend du donneur et de qui est encore en jeu. Pour chaque coup, les parties où tu y étais encore : ce que tu as fait, et combien de fois tu y as perdu un jeton.",
        travellerCaption: "Ce que chaque coup du jour t'a coûté",
        travellerLater: "Le détail coup par coup s'affiche une fois le jour fini.",
        travellerHeaders: ["Coup", "Toi", "Parties", "Tu gardes", "Tu changes", "Tu donnes", "Jeton perdu", "Éliminé"],
        yourCoup: (card, said, lost, out) =>
          `${card} : ${said === "keep" ? "gardée" : said === "change" ? "changée" : "tu donnais"}${
            out ? ", dernier jeton perdu" : lost ? ", un jeton perdu" : ""
          }`,
      },
      you: "Toi",
      player: (n) => `Joueur ${n}`,
      and: "et",
      rankName: {
        A: "as", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit", 9: "neuf",
        10: "dix", J: "valet", Q: "dame", K: "roi",
      },
      rankLetter: { J: "V", Q: "D", K: "R" },
      cardName: (rank, suit) => `${rank} de ${suit}`,
      withArticle: (rank, name) => (rank === "A" ? `l'${name}` : rank === "Q" ? `la ${name}` : `le ${name}`),
      rankPhrase: (rank, name) => (rank === "A" ? "l'as" : rank === "Q" ? "la dame" : `le ${name}`),
      seatsTitle: "Les joueurs autour de la table",
      seatsLabel: (n) => `${n} joueurs, dans l'ordre des places ; tu es le joueur 1`,
      hiddenCard: "carte cachée",
      knownCard: (card) => `${card} (tu sais qu'il l'a)`,
      lowestCard: (card) => `${card}, la plus basse`,
      tokens: (n) => (n === 0 ? "plus de jeton" : n === 1 ? "1 jeton" : `${n} jetons`),
      dealerChip: "donneur",
      turnChip: "parle",
      winnerChip: "gagnant",
      outChip: (place) => `éliminé · ${place}e`,
      said: {
        keep: "Je garde",
        change: "Je change",
        coucou: "Coucou !",
        stock: "Au talon",
        stockKing: "Roi au talon",
      },
      stockCaption: "Talon",
      stockHidden: "Le talon, face cachée",
      stockTurned: (card) => `Le talon : ${card}, retourné`,
      coupTitle: (n) => `Coup ${n}`,
      dealerLine: (name, you) => (you ? "tu donnes" : `${name} donne`),
      inPlay: (m, n) => `${m} en jeu sur ${n}`,
      youWon: "Tu as gagné !",
      winnerIs: (name) => `${name} gagne la partie`,
      coucouBanner: (name, you) => (you ? "Coucou ! Tu as un roi." : `Coucou ! ${name} a un roi.`),
      stockKingBanner: "Un roi au talon : pas d'échange.",
      yourCard: "Ta carte",
      keep: "Garder",
      change: "Changer",
      keysHint: "Au clavier : G pour garder, C pour changer.",
      skip: "Passer à la fin",
      skipping: "La fin de la partie s'affiche d'un coup.",
      promptChange: (card, name) => `Tu as ${card}. Tu gardes ta carte, ou tu changes avec ${name} ?`,
      promptStock: (card) => `Tu as ${card}. Tu gardes ta carte, ou tu changes avec la carte du talon ?`,
      yourTurn: (card, stock) =>
        `À toi : tu as ${card}. Garder, ou changer ${stock ? "avec le talon" : "avec ton voisin"} ? Touche G pour garder, C pour changer.`,
      sayKeep: (name, you) => (you ? "Tu gardes ta carte." : `${name} garde.`),
      sayExchange: (name, partner) => `${name} change avec ${partner}.`,
      sayExchangeYou: (partner, gave, got) => `Tu changes avec ${partner} : tu donnes ${gave} et tu reçois ${got}.`,
      sayExchangeToYou: (name, gave, got) => `${name} change avec toi : tu donnes ${gave} et tu reçois ${got}.`,
      sayCoucou: (name, king, you, kingYou) =>
        kingYou
          ? `${name} veut changer avec toi. Coucou ! Ton roi ne bouge pas : ${name} garde sa carte.`
          : `${you ? "Tu veux" : `${name} veut`} changer avec ${king}. Coucou ! ${king} a un roi : ${you ? "tu gardes ta carte" : `${name} garde sa carte`}.`,
      sayStock: (name, card, you) =>
        you ? `Tu changes avec le talon : tu prends ${card}.` : `${name} change avec le talon et prend ${card}.`,
      sayStockKing: (name, card, you) =>
        `Le talon montre ${card} : pas d'échange, ${you ? "tu gardes ta carte" : `${name} garde sa carte`}.`,
      lowestLine: (number, rank, others, count, you) =>
        `Coup ${number} : la carte la plus basse est ${rank}. ` +
        (you
          ? `Tu perds un jeton${count ? `, comme ${others}` : ""}.`
          : `${others} ${count > 1 ? "perdent" : "perd"} un jeton.`),
      sameRank: (number) => `Coup ${number} : toutes les cartes ont la même hauteur, personne ne perd de jeton.`,
      sayEliminated: (others, count, place, you) =>
        you
          ? `Tu n'as plus de jeton : tu es éliminé, ${place}e place${count ? `, avec ${others}` : ""}.`
          : `${others} ${count > 1 ? "n'ont plus de jeton : éliminés" : "n'a plus de jeton : éliminé"}, ${place}e place.`,
      sayWatch: "La table finit la partie sans toi, en accéléré. Le bouton « Passer à la fin » montre la fin d'un coup.",
      sayCoupStart: (number, dealer, youDeal, card) =>
        `Coup ${number}. ${youDeal ? "Tu donnes" : `${dealer} donne`}.${card ? ` Tu reçois ${card}.` : ""}`,
      sayWon: (score) => `Partie terminée : tu gagnes ! ${score} points.`,
      sayLost: (winner, place, n, score) => `Partie terminée : ${winner} gagne. Tu finis ${place}e sur ${n}, ${score} points.`,
      lastCoupTitle: "Le dernier coup",
      lastCoupNone: "Aucun coup n'est encore joué jusqu'au bout.",
      outLine: (names, you) => `${you ? "Éliminés, dont toi" : "Éliminés"} : ${names}.`,
      rulesLink: "Règles, conseils et questions du coucou",
      factCoup: "Coup",
      factDealer: "Donneur",
      factPlayers: "Joueurs",
      factTokens: "Tes jetons",
      factDeck: "Paquet",
      deck: (n) => `${n} cartes`,
      factLevel: "Joueurs simulés",
      endWonTitle: "Tu gagnes la partie !",
      endTitle: (place, n) => `Partie finie : ${place}e sur ${n}`,
      endWon: "Tu es le dernier à avoir des jetons.",
      endPlace: (place, n) => `Tu termines ${place}e sur ${n}.`,
      endScore: (score) => `Ton score : ${score} points.`,
      endCoups: (survived, total, won) =>
        won ? `Victoire en ${total} coups.` : `Tu as tenu ${survived} coup${survived > 1 ? "s" : ""} sur les ${total} de la partie.`,
      endWinner: (name) => `${name} gagne la partie.`,
      shareText: (day, place, n, score, coups) =>
        `Coucou, défi du ${day} : ${place === 1 ? "gagné" : `${place}e sur ${n}`}, ${score} points, ${coups} coups. Couyon`,
    },
  },
  en: {
    review: {
      coucou: {
        summary: (won, place, players, score) =>
          won ? `Game won: ${score} points.` : `You finish ${place}${place === 2 ? "nd" : place === 3 ? "rd" : "th"} of ${players}: ${score} points.`,
        explain:
          "For each coup in which you had a card: what you said, and what the expert would have said in your seat, knowing what you knew then. Its rule: keep a card high enough for the number of players still in, and keep when your left-hand neighbour has just handed you a higher card. Then the showdown, as the table saw it.",
        revealed:
          "For each of your choices you also see what the other choice would have given, the rest of the coup played the same way by the simulated players.",
        hidden:
          "This is a daily challenge: what the other choice would have given is shown once the day is over, at midnight in Brussels.",
        differences: (n) =>
          n === 0 ? "You always chose as the expert would." : `You chose differently from the expert ${n === 1 ? "once" : `${n} times`}.`,
        coupsLabel: "Your coups",
        coupTitle: (n) => `Coup ${n}`,
        youDealt: "You dealt: the dealer does not speak, so you had nothing to choose.",
        youDealtAqc: "You dealt, and your neighbour handed you no ace: you had nothing to choose.",
        kingsShown: (names) => `Kings shown: ${names}.`,
        youSaid: (card, said, outcome) =>
          `You held ${card} and said “${said}”${
            {
              keep: "",
              exchange: ": you swapped with your right-hand neighbour",
              coucou: ": your neighbour had a king, “Coucou!”, you keep your card",
              stock: ": you took the stock's card",
              "stock-king": ": the stock showed a king, you keep your card",
              "king-shown": ": your neighbour showed a king, you keep your card",
            }[outcome]
          }.`,
        expertToo: "The expert would have made the same choice.",
        notExperts: "Not the expert's choice",
        expertSaid: (said) => `The expert would have said “${said}”.`,
        lost: (lost) => (lost ? "You lost a token in this coup." : "You lost no token in this coup."),
        other: (said, card, lost) =>
          `Saying “${said}”, you would have ended with ${card} and ${lost ? "lost a token" : "kept your tokens"}.`,
        showdownTitle: "The showdown",
        showdownLabel: (n) => `The cards at the showdown of coup ${n}`,
        stock: (card) => `The stock turned up: ${card}.`,
        lowest: (rank, losers) => `The lowest is ${rank}. Losing a token: ${losers}.`,
        allEqual: "Every card has the same rank: nobody loses a token.",
      },
    },
    coucou: {
      aqc: {
        name: "As qui court",
        changeStock: "Change with the stock",
        dealerNote: "You deal: you speak only if your left-hand neighbour hands you an ace. You may then change it with the stock.",
        dealerTurn: (card) =>
          `Your turn, dealer: your left-hand neighbour handed you ${card}. Keep it, or change with the stock? Press G to keep, C to change with the stock.`,
        promptDealer: (card) => `You were handed ${card}. Keep it, or change with the stock's card?`,
        promptDealerLeft: (card, name) => `You hold ${card}. Keep it, or change with ${name}, the dealer?`,
        yourTurn: (card) => `Your turn: you hold ${card}. Keep, or change with your neighbour? Press G to keep, C to change.`,
        keysDealer: "Keyboard: G to keep, C to change with the stock.",
        shownKing: (card) => `${card}, shown: everyone sees it`,
        kingShownBanner: (name, card, you) => (you ? `You show your king: ${card}.` : `${name} shows a king: ${card}.`),
        sayKingShown: (name, holder, card, you, kingYou) =>
          kingYou
            ? `${name} wants to change with you. You show your king, ${card}: ${name} keeps their card.`
            : `${you ? "You want" : `${name} wants`} to change with ${holder}, who shows a king, ${card}: ${you ? "you keep your card" : `${name} keeps their card`}.`,
        saidKing: "King shown",
        rulesLink: "As qui court rules and tips",
        shareText: (day, place, n, score, coups) =>
          `As qui court, daily of ${day}: ${place === 1 ? "won" : `${place}${place === 2 ? "nd" : place === 3 ? "rd" : "th"} of ${n}`}, ${score} points, ${coups} coups. Couyon`,
      },
      freeText: "Choose how many players, their tokens and the simulated players' level, then take your seat.",
      dailyNote: "Eight players, three tokens each, expert simulated players.",
      dailyRules: "One ranked try a day. Your place makes your score, and at an equal place, lasting more coups scores more. On equal scores, whoever won in fewer coups ranks first, then whoever finished first. The challenge changes at midnight, Brussels time.",
      dealsHeader: "Coups lasted",
      back: {
        you: (score, coups, place, players) => `You: ${score} points, ${coups} coups lasted, ${place} of ${players}.`,
        dealsCaption: "How many coups the players lasted",
        travellerTitle: "Coup by coup",
        travellerIntro:
          "A coup of a given number comes from the same shuffle in every game of the day, but who gets which card depends on the dealer and on who is still in. For each coup, the games where you were still in: what you did, and how often you lost a token there.",
        travellerCaption: "What each coup of the day cost you",
        travellerLater: "The coup-by-coup detail shows once the day is over.",
        travellerHeaders: ["Coup", "You", "Games", "You keep", "You change", "You deal", "Lost a token", "Out"],
        yourCoup: (card, said, lost, out) =>
          `${card}: ${said === "keep" ? "kept" : said === "change" ? "changed" : "you dealt"}${
            out ? ", lost your last token" : lost ? ", lost a token" : ""
          }`,
      },
      you: "You",
      player: (n) => `Player ${n}`,
      and: "and",
      rankName: {
        A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
        10: "ten", J: "jack", Q: "queen", K: "king",
      },
      rankLetter: { J: "J", Q: "Q", K: "K" },
      cardName: (rank, suit) => `${rank} of ${suit}`,
      withArticle: (rank, name) => `the ${name}`,
      rankPhrase: (rank, name) => (rank === "A" || rank === "8" ? `an ${name}` : `a ${name}`),
      seatsTitle: "The players round the table",
      seatsLabel: (n) => `${n} players, in seat order; you are player 1`,
      hiddenCard: "hidden card",
      knownCard: (card) => `${card} (you know it)`,
      lowestCard: (card) => `${card}, the lowest`,
      tokens: (n) => (n === 0 ? "no tokens left" : n === 1 ? "1 token" : `${n} tokens`),
      dealerChip: "dealer",
      turnChip: "speaking",
      winnerChip: "winner",
      outChip: (place) => `out · ${ordinalEn(place)}`,
      said: {
        keep: "I keep",
        change: "I change",
        coucou: "Coucou!",
        stock: "From the stock",
        stockKing: "King in the stock",
      },
      stockCaption: "Stock",
      stockHidden: "The stock, face down",
      stockTurned: (card) => `The stock: ${card}, turned up`,
      coupTitle: (n) => `Coup ${n}`,
      dealerLine: (name, you) => (you ? "you deal" : `${name} deals`),
      inPlay: (m, n) => `${m} still in of ${n}`,
      youWon: "You won!",
      winnerIs: (name) => `${name} wins the game`,
      coucouBanner: (name, you) => (you ? "Coucou! You hold a king." : `Coucou! ${name} holds a king.`),
      stockKingBanner: "A king in the stock: no exchange.",
      yourCard: "Your card",
      keep: "Keep",
      change: "Change",
      keysHint: "Keyboard: K or G to keep, C to change.",
      skip: "Skip to the end",
      skipping: "The end of the game is shown at once.",
      promptChange: (card, name) => `You hold ${card}. Keep it, or change with ${name}?`,
      promptStock: (card) => `You hold ${card}. Keep it, or change with the stock's card?`,
      yourTurn: (card, stock) =>
        `Your turn: you hold ${card}. Keep, or change ${stock ? "with the stock" : "with your neighbour"}? Press K to keep, C to change.`,
      sayKeep: (name, you) => (you ? "You keep your card." : `${name} keeps.`),
      sayExchange: (name, partner) => `${name} changes with ${partner}.`,
      sayExchangeYou: (partner, gave, got) => `You change with ${partner}: you give ${gave} and get ${got}.`,
      sayExchangeToYou: (name, gave, got) => `${name} changes with you: you give ${gave} and get ${got}.`,
      sayCoucou: (name, king, you, kingYou) =>
        kingYou
          ? `${name} wants to change with you. Coucou! Your king stays: ${name} keeps that card.`
          : `${you ? "You want" : `${name} wants`} to change with ${king}. Coucou! ${king} holds a king: ${you ? "you keep your card" : `${name} keeps that card`}.`,
      sayStock: (name, card, you) =>
        you ? `You change with the stock: you take ${card}.` : `${name} changes with the stock and takes ${card}.`,
      sayStockKing: (name, card, you) =>
        `The stock shows ${card}: no exchange, ${you ? "you keep your card" : `${name} keeps that card`}.`,
      lowestLine: (number, rank, others, count, you) =>
        `Coup ${number}: the lowest card is ${rank}. ` +
        (you ? `You lose a token${count ? `, and so ${count > 1 ? "do" : "does"} ${others}` : ""}.` : `${others} ${count > 1 ? "lose" : "loses"} a token.`),
      sameRank: (number) => `Coup ${number}: every card has the same rank, nobody loses a token.`,
      sayEliminated: (others, count, place, you) =>
        you
          ? `You have no tokens left: you are out, in ${ordinalEn(place)} place${count ? `, with ${others}` : ""}.`
          : `${others} ${count > 1 ? "have" : "has"} no tokens left: out, in ${ordinalEn(place)} place.`,
      sayWatch: "The table plays the rest of the game without you, faster. The “Skip to the end” button shows the end at once.",
      sayCoupStart: (number, dealer, youDeal, card) =>
        `Coup ${number}. ${youDeal ? "You deal" : `${dealer} deals`}.${card ? ` You get ${card}.` : ""}`,
      sayWon: (score) => `Game over: you win! ${score} points.`,
      sayLost: (winner, place, n, score) =>
        `Game over: ${winner} wins. You finish ${ordinalEn(place)} of ${n}, ${score} points.`,
      lastCoupTitle: "The last coup",
      lastCoupNone: "No coup has been played to the end yet.",
      outLine: (names, you) => `${you ? "Out, you among them" : "Out"}: ${names}.`,
      rulesLink: "Coucou rules, tips and questions",
      factCoup: "Coup",
      factDealer: "Dealer",
      factPlayers: "Players",
      factTokens: "Your tokens",
      factDeck: "Deck",
      deck: (n) => `${n} cards`,
      factLevel: "Simulated players",
      endWonTitle: "You win the game!",
      endTitle: (place, n) => `Game over: ${ordinalEn(place)} of ${n}`,
      endWon: "You are the last one with tokens.",
      endPlace: (place, n) => `You finish ${ordinalEn(place)} of ${n}.`,
      endScore: (score) => `Your score: ${score} points.`,
      endCoups: (survived, total, won) =>
        won ? `A win in ${total} coups.` : `You lasted ${survived} coup${survived > 1 ? "s" : ""} of the game's ${total}.`,
      endWinner: (name) => `${name} wins the game.`,
      shareText: (day, place, n, score, coups) =>
        `Coucou, challenge of ${day}: ${place === 1 ? "won" : `${ordinalEn(place)} of ${n}`}, ${score} points, ${coups} coups. Couyon`,
    },
  },
};

// As qui court's home, day's results and traveller say what coucou's say (the same table sizes, tokens and
// daily challenge, ruling 20): its own group, t()["as-qui-court"], shares them.
for (const language of ["fr", "en"]) {
  const { freeText, dailyNote, dailyRules, dealsHeader, back } = words[language].coucou;
  words[language]["as-qui-court"] = { freeText, dailyNote, dailyRules, dealsHeader, back };
}

export default words;
