// The words of "Mon niveau" (t().level), French and English, registered by js/level.js when it is first loaded.

export default {
  fr: {
    level: {
      loading: "Ton niveau se calcule…",
      error: "Le serveur ne répond pas. Réessaie dans un instant.",
      empty:
        "Pas encore de niveau : il vient des parties finies à une table entre amis, des défis du jour passés et des tournois de club clos. Joue-en une !",
      rating: "Niveau",
      challenge: "Performance au défi",
      provisional: "provisoire",
      none: "—",
      plusMinus: (value, interval) => `${value} ± ${interval}`,
      games: "Parties comptées",
      deals: "Donnes comptées",
      curveTitle: (game) => `Courbe du niveau au ${game}`,
      curveTable: (game) => `Niveau au ${game}, partie après partie`,
      when: "Date",
      after: "Niveau après la partie",
      explain:
        "Le niveau vient des parties avec des gens : les robots y comptent à leur niveau fixe, une partie répétée entre les mêmes joueurs dans la semaine compte de moins en moins, une victoire ne le fait jamais baisser. La performance au défi compare chaque donne d'un défi du jour passé ou d'un tournoi clos à tous ceux qui l'ont jouée (un champ fort compte plus), sur tes 500 dernières donnes ; au tarot, les donnes à 3, 4 et 5 comptent ensemble.",
    },
  },
  en: {
    level: {
      loading: "Working out your level…",
      error: "The server does not answer. Try again in a moment.",
      empty: "No level yet: it comes from finished games at a friends' table, from past days' daily challenges and from closed club tournaments. Play one!",
      rating: "Rating",
      challenge: "Challenge performance",
      provisional: "provisional",
      none: "—",
      plusMinus: (value, interval) => `${value} ± ${interval}`,
      games: "Games counted",
      deals: "Deals counted",
      curveTitle: (game) => `Rating curve at ${game}`,
      curveTable: (game) => `Rating at ${game}, game after game`,
      when: "Date",
      after: "Rating after the game",
      explain:
        "The rating comes from games with people: bots count at their fixed level, a game repeated among the same players within a week counts less and less, and a win never lowers it. The challenge performance compares each deal of a past daily challenge or a closed tournament with everyone who played it (a strong field counts more), over your latest 500 deals; at tarot, deals at 3, 4 and 5 count together.",
    },
  },
};
