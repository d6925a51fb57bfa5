/** MLA 9, APA 7 and Chicago 17 citations, against the examples of the style guides. */
import assert from "node:assert/strict";
import { type CitationSource, formatCitation } from "../server/domain/reads/citation.ts";
import { initialled, inverted, parseAuthors } from "../server/domain/reads/citation_names.ts";

type Row = [string, CitationSource, { mla: string; apa: string; chicago: string }];

const ROWS: Row[] = [
  [
    // APA Style, "Webpage on a website references" (apastyle.apa.org), example 1.
    "one author, a news site",
    {
      author: "Carolyn Bologna",
      title: "Why some people with anxiety love watching horror movies",
      site: "HuffPost",
      publishedAt: "2019-10-31T12:00:00.000Z",
      url:
        "https://www.huffpost.com/entry/anxiety-love-watching-horror-movies_l_5d277587e4b02a5a5d57b59e",
    },
    {
      apa:
        "Bologna, C. (2019, October 31). Why some people with anxiety love watching horror movies. HuffPost. https://www.huffpost.com/entry/anxiety-love-watching-horror-movies_l_5d277587e4b02a5a5d57b59e",
      mla:
        "Bologna, Carolyn. “Why some people with anxiety love watching horror movies.” HuffPost, 31 Oct. 2019, www.huffpost.com/entry/anxiety-love-watching-horror-movies_l_5d277587e4b02a5a5d57b59e.",
      chicago:
        "Bologna, Carolyn. “Why some people with anxiety love watching horror movies.” HuffPost, October 31, 2019. https://www.huffpost.com/entry/anxiety-love-watching-horror-movies_l_5d277587e4b02a5a5d57b59e.",
    },
  ],
  [
    // MLA Handbook 9 / Purdue OWL "MLA Works Cited: Electronic Sources", a blog post.
    "a blog post with a colon in its title",
    {
      author: "Stefanie Hollmichel",
      title: "The Reading Brain: Differences between Digital and Print",
      site: "So Many Books, So Little Time",
      publishedAt: "2013-04-25T00:00:00.000Z",
      url:
        "https://somanybooksblog.com/2013/04/25/the-reading-brain-differences-between-digital-and-print/",
    },
    {
      mla:
        "Hollmichel, Stefanie. “The Reading Brain: Differences between Digital and Print.” So Many Books, So Little Time, 25 Apr. 2013, somanybooksblog.com/2013/04/25/the-reading-brain-differences-between-digital-and-print/.",
      apa:
        "Hollmichel, S. (2013, April 25). The Reading Brain: Differences between Digital and Print. So Many Books, So Little Time. https://somanybooksblog.com/2013/04/25/the-reading-brain-differences-between-digital-and-print/",
      chicago:
        "Hollmichel, Stefanie. “The Reading Brain: Differences between Digital and Print.” So Many Books, So Little Time, April 25, 2013. https://somanybooksblog.com/2013/04/25/the-reading-brain-differences-between-digital-and-print/.",
    },
  ],
  [
    // Chicago Manual of Style, quick guide: news or magazine article consulted online.
    "Chicago's online news example, September abbreviated Sept. in MLA",
    {
      author: "Farhad Manjoo",
      title: "Snap Makes a Bet on the Cultural Supremacy of the Camera",
      site: "New York Times",
      publishedAt: "2017-09-08T00:00:00.000Z",
      url: "https://www.nytimes.com/2017/03/08/technology/snap.html",
    },
    {
      chicago:
        "Manjoo, Farhad. “Snap Makes a Bet on the Cultural Supremacy of the Camera.” New York Times, September 8, 2017. https://www.nytimes.com/2017/03/08/technology/snap.html.",
      mla:
        "Manjoo, Farhad. “Snap Makes a Bet on the Cultural Supremacy of the Camera.” New York Times, 8 Sept. 2017, www.nytimes.com/2017/03/08/technology/snap.html.",
      apa:
        "Manjoo, F. (2017, September 8). Snap Makes a Bet on the Cultural Supremacy of the Camera. New York Times. https://www.nytimes.com/2017/03/08/technology/snap.html",
    },
  ],
  [
    // Two authors: MLA and Chicago invert the first only; APA joins with "&".
    "two authors, a title ending in a question mark",
    {
      author: "Geoffrey C. Ward and Ken Burns",
      title: "Was the war worth it?",
      site: "The Herald",
      publishedAt: "2024-05-03T23:30:00.000Z",
      url: "https://herald.example/war",
    },
    {
      mla:
        "Ward, Geoffrey C., and Ken Burns. “Was the war worth it?” The Herald, 3 May 2024, herald.example/war.",
      apa:
        "Ward, G. C., & Burns, K. (2024, May 3). Was the war worth it? The Herald. https://herald.example/war",
      chicago:
        "Ward, Geoffrey C., and Ken Burns. “Was the war worth it?” The Herald, May 3, 2024. https://herald.example/war.",
    },
  ],
  [
    // Three authors: MLA "et al."; APA lists all (up to 20); Chicago lists all (up to 10).
    "three authors, an exclamation, no date",
    {
      author: "Anne Burdick, Johanna Drucker, Peter Lunenfeld",
      title: "Stop the presses!",
      site: "MIT Press Reader",
      publishedAt: null,
      url: "https://reader.example/presses",
    },
    {
      mla: "Burdick, Anne, et al. “Stop the presses!” MIT Press Reader, reader.example/presses.",
      apa:
        "Burdick, A., Drucker, J., & Lunenfeld, P. (n.d.). Stop the presses! MIT Press Reader. https://reader.example/presses",
      chicago:
        "Burdick, Anne, Johanna Drucker, and Peter Lunenfeld. “Stop the presses!” MIT Press Reader. https://reader.example/presses.",
    },
  ],
  [
    // APA Style example: a group author that is also the site is named once.
    "an organisation that is the site, APA's group-author example",
    {
      author: "World Health Organization",
      title: "Questions and answers on immunization and vaccine safety",
      site: "World Health Organization",
      publishedAt: "2018-03-01T00:00:00.000Z",
      url: "https://www.who.int/features/qa/84/en/",
    },
    {
      apa:
        "World Health Organization. (2018, March 1). Questions and answers on immunization and vaccine safety. https://www.who.int/features/qa/84/en/",
      mla:
        "“Questions and answers on immunization and vaccine safety.” World Health Organization, 1 Mar. 2018, www.who.int/features/qa/84/en/.",
      chicago:
        "“Questions and answers on immunization and vaccine safety.” World Health Organization, March 1, 2018. https://www.who.int/features/qa/84/en/.",
    },
  ],
  [
    "no author: APA names the site, MLA and Chicago begin with the title",
    {
      author: "",
      title: "Tide tables",
      site: "Portmere Post",
      publishedAt: "2024-06-15T08:00:00Z",
      url: "https://post.example/tides",
    },
    {
      apa: "Portmere Post. (2024, June 15). Tide tables. https://post.example/tides",
      mla: "“Tide tables.” Portmere Post, 15 June 2024, post.example/tides.",
      chicago: "“Tide tables.” Portmere Post, June 15, 2024. https://post.example/tides.",
    },
  ],
  [
    "a suffix and a particle; no doubled period after Jr.",
    {
      author: "Martin Luther King Jr., Juana de la Cruz",
      title: "Letters",
      site: "Archive",
      publishedAt: "2020-07-04T00:00:00Z",
      url: "https://archive.example/l",
    },
    {
      mla:
        "King, Martin Luther, Jr., and Juana de la Cruz. “Letters.” Archive, 4 July 2020, archive.example/l.",
      apa:
        "King, M. L., Jr., & de la Cruz, J. (2020, July 4). Letters. Archive. https://archive.example/l",
      chicago:
        "King, Martin Luther, Jr., and Juana de la Cruz. “Letters.” Archive, July 4, 2020. https://archive.example/l.",
    },
  ],
  [
    "a book chapter: the book is the container, the publisher after it",
    {
      author: "Maya Lin",
      title: "Boring by design",
      site: "Folio Press",
      publishedAt: "2024-02-20T00:00:00Z",
      url: "https://folio.example/read/pub_1/books/bk_1/chapters/2",
      book: "The Case for Boring Databases",
    },
    {
      mla:
        "Lin, Maya. “Boring by design.” The Case for Boring Databases, Folio Press, 20 Feb. 2024, folio.example/read/pub_1/books/bk_1/chapters/2.",
      apa:
        "Lin, M. (2024, February 20). Boring by design. In The Case for Boring Databases. Folio Press. https://folio.example/read/pub_1/books/bk_1/chapters/2",
      chicago:
        "Lin, Maya. “Boring by design.” In The Case for Boring Databases. Folio Press, 2024. https://folio.example/read/pub_1/books/bk_1/chapters/2.",
    },
  ],
];

for (const [name, src, want] of ROWS) {
  Deno.test(`formatCitation(): ${name}`, () => {
    for (const style of ["mla", "apa", "chicago"] as const) {
      assert.equal(formatCitation(style, src), want[style], style);
    }
  });
}

Deno.test("author fields split into people; organisations and CJK names stay whole", () => {
  assert.deepEqual(parseAuthors("Ann Lee, Bo Chan").map(inverted), ["Lee, Ann", "Chan, Bo"]);
  assert.deepEqual(parseAuthors("Ann Lee & Bo Chan; Cy Dunn").map(inverted), [
    "Lee, Ann",
    "Chan, Bo",
    "Dunn, Cy",
  ]);
  assert.deepEqual(parseAuthors("Lee, Ann").map(inverted), ["Lee, Ann"], "already inverted");
  assert.deepEqual(parseAuthors("Jean-Paul Sartre").map(initialled), ["Sartre, J.-P."]);
  assert.deepEqual(parseAuthors("J. R. R. Tolkien").map(initialled), ["Tolkien, J. R. R."]);
  assert.deepEqual(parseAuthors("Ludwig van Beethoven").map(inverted), ["van Beethoven, Ludwig"]);
  for (const whole of ["田中 健太", "Reuters Staff", "Plato", "Procter & Gamble"]) {
    assert.deepEqual(parseAuthors(whole).map(inverted), [whole], whole);
  }
  assert.deepEqual(parseAuthors("  "), []);
});

Deno.test("an invalid date is no date, and a site ending in ! gets no second mark", () => {
  const src = {
    author: "Ann Lee",
    title: "Hi",
    site: "Yahoo!",
    publishedAt: "soon",
    url: "https://y.example/a",
  };
  assert.equal(formatCitation("apa", src), "Lee, A. (n.d.). Hi. Yahoo! https://y.example/a");
  assert.equal(formatCitation("chicago", src), "Lee, Ann. “Hi.” Yahoo! https://y.example/a.");
});

/** Bylines as real news sites print them, and each style's first author. */
const BYLINES: [string, { apa: string; mla: string; chicago: string }][] = [
  // Particles belong to the surname, capitalised or not (APA 7 §9.8, MLA 9 2.1.1, CMOS 8.5).
  ["Abigail Van Buren", {
    apa: "Van Buren, A.",
    mla: "Van Buren, Abigail",
    chicago: "Van Buren, Abigail",
  }],
  ["Marcus De Guzman", {
    apa: "De Guzman, M.",
    mla: "De Guzman, Marcus",
    chicago: "De Guzman, Marcus",
  }],
  ["Juan Carlos de la Cruz", {
    apa: "de la Cruz, J. C.",
    mla: "de la Cruz, Juan Carlos",
    chicago: "de la Cruz, Juan Carlos",
  }],
  ["Van Morrison", { apa: "Morrison, V.", mla: "Morrison, Van", chicago: "Morrison, Van" }],
  // A role or an outlet after a comma is no co-author; a byline in capitals is a name.
  ["ROBERT BURNS, AP National Security Writer", {
    apa: "Burns, R.",
    mla: "Burns, Robert",
    chicago: "Burns, Robert",
  }],
  ["Troy L. Smith, Cleveland.com", {
    apa: "Smith, T. L.",
    mla: "Smith, Troy L.",
    chicago: "Smith, Troy L.",
  }],
  ["Ann Lee, Reuters", { apa: "Lee, A.", mla: "Lee, Ann", chicago: "Lee, Ann" }],
  ["SEAN O'BRIEN", { apa: "O'Brien, S.", mla: "O'Brien, Sean", chicago: "O'Brien, Sean" }],
  ["Jackie Roman | NJ Advance Media for NJ.com", {
    apa: "Roman, J.",
    mla: "Roman, Jackie",
    chicago: "Roman, Jackie",
  }],
  ["Kim Lyons for The Verge", { apa: "Lyons, K.", mla: "Lyons, Kim", chicago: "Lyons, Kim" }],
  ["King, Martin Luther, Jr.", {
    apa: "King, M. L., Jr.",
    mla: "King, Martin Luther, Jr.",
    chicago: "King, Martin Luther, Jr.",
  }],
  // Titles and degrees are not cited (APA 7 §9.8, MLA 9 2.1.1); "J.K." is two initials.
  ["Dr. Jane Smith", { apa: "Smith, J.", mla: "Smith, Jane", chicago: "Smith, Jane" }],
  ["Rev. Al Sharpton", { apa: "Sharpton, A.", mla: "Sharpton, Al", chicago: "Sharpton, Al" }],
  ["Jane Doe MD", { apa: "Doe, J.", mla: "Doe, Jane", chicago: "Doe, Jane" }],
  ["Mr. Rogers", { apa: "Mr. Rogers.", mla: "Mr. Rogers", chicago: "Mr. Rogers" }],
  ["J.K. Rowling", { apa: "Rowling, J. K.", mla: "Rowling, J.K.", chicago: "Rowling, J.K." }],
  // A byline's own word, an outlet after a comma, a dash or in brackets, a credit line's editor.
  ["By Jane Doe", { apa: "Doe, J.", mla: "Doe, Jane", chicago: "Doe, Jane" }],
  ["Jane Doe, The Washington Post", { apa: "Doe, J.", mla: "Doe, Jane", chicago: "Doe, Jane" }],
  ["Jane Doe - Senior Reporter", { apa: "Doe, J.", mla: "Doe, Jane", chicago: "Doe, Jane" }],
  ["Jane Doe (Reuters)", { apa: "Doe, J.", mla: "Doe, Jane", chicago: "Doe, Jane" }],
  ["Reporting by Jane Doe; Editing by John Roe", {
    apa: "Doe, J.",
    mla: "Doe, Jane",
    chicago: "Doe, Jane",
  }],
];

/** A name ended by the period the styles put after it ("Smith, Troy L." has its own). */
const end = (name: string) => name.endsWith(".") ? name : `${name}.`;

for (const [byline, want] of BYLINES) {
  Deno.test(`a real byline, one author in every style: ${byline}`, () => {
    const src = {
      author: byline,
      title: "A title",
      site: "News",
      publishedAt: null,
      url: "https://n.example/a",
    };
    assert.equal(
      formatCitation("apa", src),
      `${want.apa} (n.d.). A title. News. https://n.example/a`,
    );
    assert.equal(formatCitation("mla", src), `${end(want.mla)} “A title.” News, n.example/a.`);
    assert.equal(
      formatCitation("chicago", src),
      `${end(want.chicago)} “A title.” News. https://n.example/a.`,
    );
  });
}

Deno.test("an outlet after two people is neither; a surname that looks like a degree stays", () => {
  assert.deepEqual(
    parseAuthors("ANNA SMITH and JOHN DOE, Associated Press").map(inverted),
    ["Smith, Anna", "Doe, John"],
  );
  assert.deepEqual(parseAuthors("Anh Thi Do").map(inverted), ["Do, Anh Thi"]);
  assert.deepEqual(parseAuthors("Lt. Gen. John Smith").map(initialled), ["Smith, J."]);
});

Deno.test("two people with a role each stay two people", () => {
  assert.deepEqual(
    parseAuthors("Ann Lee, Staff Writer, and Bo Chan, Correspondent").map(inverted),
    [
      "Lee, Ann",
      "Chan, Bo",
    ],
  );
  assert.deepEqual(parseAuthors("Center for Disease Control").map(inverted), [
    "Center for Disease Control",
  ]);
});

Deno.test("quotation marks in a title become single inside the style's double ones", () => {
  const src = (title: string) => ({
    author: "Ann Lee",
    title,
    site: "News",
    publishedAt: null,
    url: "https://n.example/a",
  });
  assert.equal(
    formatCitation("mla", src('The "Big One"')),
    "Lee, Ann. “The ‘Big One.’” News, n.example/a.",
  );
  assert.equal(
    formatCitation("chicago", src("Why “Succession” matters")),
    "Lee, Ann. “Why ‘Succession’ matters.” News. https://n.example/a.",
  );
  assert.equal(
    formatCitation("mla", src('He asked "why?"')),
    "Lee, Ann. “He asked ‘why?’” News, n.example/a.",
  );
  // APA sets no title in quotation marks: the title's own stay double, the period inside them.
  assert.equal(
    formatCitation("apa", src('The "Big One"')),
    'Lee, A. (n.d.). The "Big One." News. https://n.example/a',
  );
  // An apostrophe at the end is no closing quotation mark.
  assert.equal(
    formatCitation("mla", src("The Smiths’")),
    "Lee, Ann. “The Smiths’.” News, n.example/a.",
  );
});
