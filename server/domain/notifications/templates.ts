/**
 * The emails (docs/decisions/email.md): one template per event type that mails its owner, and the
 * password reset. A template reads the event's `data` (the contract is in the decision record),
 * says what happened in a few sentences and links to the page in the recipient's portal. The
 * renderer makes the plain-text and the HTML body from the same parts, every value escaped.
 */
import {
  centsDollars,
  dateWords,
  decimalDollars,
  dollars,
  monthWords,
  plainWord,
  sentence,
  text,
} from "./words.ts";

/** Whom an email is for: the owner's kind decides its portal and, for some events, the wording. */
export type Audience = "publisher" | "buyer" | "operator";

/** What a template makes: a subject, paragraphs, and the one link to act on. */
interface Parts {
  subject: string;
  paragraphs: string[];
  action: { label: string; href: string };
}

type Data = Record<string, unknown>;
type Template = (d: Data, to: Audience) => Parts;

/** A finished email. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const portal = (to: Audience) =>
  to === "publisher" ? "/publisher" : to === "buyer" ? "/buyer" : "/operator";
/** The page the event names (`data.url`), or the default page of the recipient's portal. */
const page = (d: Data, fallback: string) => text(d, "url") ?? fallback;

const invoiceName = (d: Data) => {
  const n = text(d, "invoiceNumber");
  const m = monthWords(d, "month");
  return n ? `Invoice ${n}${m ? ` for ${m}` : ""}` : m ? `Your invoice for ${m}` : "Your invoice";
};
const due = (d: Data) => {
  const amount = dollars(d, "amountDueMicros");
  const at = dateWords(d, "dueAt");
  return sentence(amount && `Amount due: ${amount}.`, at && `It is due on ${at}.`);
};
const invoiceLink = (d: Data) => ({ label: "See the invoice", href: page(d, "/buyer/statements") });

/** The event types that send email, and what each says. */
export const EVENT_TEMPLATES: Record<string, Template> = {
  "offer.created": (d) => {
    const who = text(d, "publisherName") ?? "A publisher";
    const price = decimalDollars(d, "monthlyPriceUsd");
    const until = dateWords(d, "expiresAt");
    return {
      subject: `${who} made you a license offer`,
      paragraphs: [
        sentence(
          `${who} answered your license request with an offer`,
          price ? `at ${price} a month.` : ".",
        ),
        sentence(until && `The offer is open until ${until}.`, text(d, "note") && `Their note:`),
        text(d, "note") ?? "",
      ].filter(Boolean),
      action: { label: "Review the offer", href: page(d, "/buyer/offers") },
    };
  },
  "offer.accepted": (d) => {
    const first = decimalDollars(d, "firstChargeUsd");
    return {
      subject: "A buyer accepted your license offer",
      paragraphs: [
        "A buyer accepted your offer; their license is active now.",
        sentence(first && `The first charge is ${first}.`),
      ].filter(Boolean),
      action: { label: "See your license requests", href: page(d, "/publisher/requests") },
    };
  },
  "offer.declined": (d) => ({
    subject: "A buyer declined your license offer",
    paragraphs: [
      "A buyer declined your offer; nothing was billed.",
      sentence(text(d, "reason") && `Their reason: ${text(d, "reason")}`),
    ].filter(Boolean),
    action: { label: "See your license requests", href: page(d, "/publisher/requests") },
  }),
  "license_request.created": (d) => {
    const who = text(d, "requester") ?? "An agent";
    const ceiling = decimalDollars(d, "maxMonthlyUsd");
    return {
      subject: `${who} asked for a license`,
      paragraphs: [
        sentence(
          `${who} asked for a license`,
          plainWord(d, "useCase") ? `for ${plainWord(d, "useCase")}` : null,
          ceiling ? `and offers up to ${ceiling} a month.` : ".",
        ),
        text(d, "message") ? `Their message: ${text(d, "message")}` : "",
      ].filter(Boolean),
      action: { label: "Answer the request", href: page(d, "/publisher/requests") },
    };
  },
  "statement.closed": (d, to) => {
    const month = monthWords(d, "month") ?? "last month";
    if (to === "publisher") {
      const payout = centsDollars(d, "payoutUsdCents");
      return {
        subject: `Your statement for ${month} is final`,
        paragraphs: [sentence(`${month} closed.`, payout && `Your payout for it is ${payout}.`)],
        action: { label: "See your payouts", href: page(d, "/publisher/payouts") },
      };
    }
    const total = centsDollars(d, "totalUsdCents");
    const dueNow = centsDollars(d, "amountDueUsdCents");
    return {
      subject: `Your statement for ${month} is final`,
      paragraphs: [
        sentence(
          `${month} closed.`,
          total && `Your total is ${total}.`,
          dueNow && `Due: ${dueNow}.`,
        ),
      ],
      action: { label: "See your statement", href: page(d, "/buyer/statements") },
    };
  },
  "budget.threshold": (d) => {
    const share = text(d, "threshold") ?? "80";
    const whose = text(d, "publisherName");
    const spent = centsDollars(d, "spentUsdCents");
    const limit = centsDollars(d, "monthlyUsdCents");
    return {
      subject: `You have used ${share}% of your ${
        whose ? `budget for ${whose}` : "monthly budget"
      }`,
      paragraphs: [
        sentence(
          `Your ${whose ? `budget for ${whose}` : "monthly budget"} reached ${share}%`,
          spent && limit ? `(${spent} of ${limit}).` : ".",
        ),
        share === "100" ? "Priced reads under this budget are refused until next month." : "",
      ].filter(Boolean),
      action: { label: "See your budgets", href: page(d, "/buyer/budgets") },
    };
  },
  "invoice.issued": (d) => ({
    subject: `${invoiceName(d)} is ready`,
    paragraphs: [
      sentence(
        `${invoiceName(d)} was issued.`,
        dollars(d, "totalMicros") && `Total: ${dollars(d, "totalMicros")}.`,
      ),
      due(d),
    ].filter(Boolean),
    action: invoiceLink(d),
  }),
  "invoice.due_soon": (d) => ({
    subject: `${invoiceName(d)} is due soon`,
    paragraphs: [`${invoiceName(d)} is not paid yet.`, due(d)].filter(Boolean),
    action: invoiceLink(d),
  }),
  "invoice.overdue": (d) => ({
    subject: `${invoiceName(d)} is overdue`,
    paragraphs: [
      sentence(
        `${invoiceName(d)} is past its due date`,
        dateWords(d, "dueAt") ? `(${dateWords(d, "dueAt")}).` : ".",
      ),
      sentence(dollars(d, "amountDueMicros") && `Amount due: ${dollars(d, "amountDueMicros")}.`),
      "If it stays unpaid, priced reads are refused until it is paid.",
    ].filter(Boolean),
    action: invoiceLink(d),
  }),
  "invoice.paid": (d) => ({
    subject: `${invoiceName(d)} is paid`,
    paragraphs: [
      sentence(
        `Thank you: ${invoiceName(d).replace(/^./, (ch) => ch.toLowerCase())} is paid in full.`,
      ),
    ],
    action: invoiceLink(d),
  }),
  "buyer.suspended": (d) => ({
    subject: "Priced reads are paused on your account",
    paragraphs: [
      sentence(
        "Priced reads are refused on your account",
        text(d, "invoiceNumber")
          ? `until invoice ${text(d, "invoiceNumber")} is paid.`
          : "for now.",
      ),
      sentence(text(d, "reason") && `Reason: ${text(d, "reason")}`),
      "Free reads still work.",
    ].filter(Boolean),
    action: { label: "See what is due", href: page(d, "/buyer/statements") },
  }),
  "buyer.reinstated": (d) => ({
    subject: "Priced reads work again on your account",
    paragraphs: [
      "Your account is in good standing again: priced reads work as before.",
      sentence(text(d, "reason") && `Note: ${text(d, "reason")}`),
    ].filter(Boolean),
    action: { label: "Go to your account", href: page(d, "/buyer") },
  }),
  "dispute.opened": (d, to) => ({
    subject: to === "buyer" ? "We received your dispute" : "A buyer disputed charges",
    paragraphs: [
      to === "buyer"
        ? "Your dispute was received; you will hear when it is decided."
        : "A buyer disputed charges for your content and asks you to decide.",
      sentence(text(d, "reason") && `Reason given: ${text(d, "reason")}`),
    ].filter(Boolean),
    action: { label: "See the dispute", href: page(d, `${portal(to)}`) },
  }),
  "dispute.decided": (d, to) => {
    const decision = plainWord(d, "decision") ?? plainWord(d, "state") ?? "decided";
    const credited = dollars(d, "creditedMicros");
    return {
      subject: `A dispute was decided: ${decision}`,
      paragraphs: [
        sentence(
          `The dispute was decided: ${decision}.`,
          credited && d.creditedMicros !== 0 &&
            `${credited} is credited${to === "buyer" ? " to you" : ""}.`,
        ),
        sentence(text(d, "reason") && `Reason: ${text(d, "reason")}`),
      ].filter(Boolean),
      action: { label: "See the dispute", href: page(d, portal(to)) },
    };
  },
  "credit_note.issued": (d) => {
    const n = text(d, "creditNoteNumber");
    const amount = dollars(d, "amountMicros");
    return {
      subject: n ? `Credit note ${n}` : "A credit note was issued",
      paragraphs: [
        sentence(
          n ? `Credit note ${n} was issued` : "A credit note was issued",
          amount ? `for ${amount}.` : ".",
        ),
        "It is taken off your open statement or your next invoice.",
      ],
      action: { label: "See the credit note", href: page(d, "/buyer/statements") },
    };
  },
  "payout.paid": (d) => {
    const month = monthWords(d, "month");
    const amount = dollars(d, "amountMicros");
    const at = dateWords(d, "paidAt");
    return {
      subject: `Your payout${month ? ` for ${month}` : ""} was paid`,
      paragraphs: [
        sentence(
          `Your payout${month ? ` for ${month}` : ""}`,
          amount ? `of ${amount}` : null,
          `was paid${at ? ` on ${at}` : ""}.`,
        ),
        sentence(text(d, "reference") && `Reference: ${text(d, "reference")}.`),
      ].filter(Boolean),
      action: { label: "See your payouts", href: page(d, "/publisher/payouts") },
    };
  },
};

/** The password reset email: `link` is the one-use address, `portal` the portal's name. */
const RESET: Template = (d) => ({
  subject: "Reset your Folio password",
  paragraphs: [
    sentence(
      "Someone (we hope you) asked to reset the password of your",
      text(d, "portal") ?? "Folio",
      "account.",
    ),
    "The link below works once, for one hour. If you did not ask, ignore this email: your password stays as it is.",
  ],
  action: { label: "Choose a new password", href: text(d, "link") ?? portal("buyer") },
});

/** The template name of the password reset. */
export const RESET_TEMPLATE = "password_reset";

/** Whether events of this type send email. */
export function mailsFor(type: string): boolean {
  return Object.hasOwn(EVENT_TEMPLATES, type);
}

/**
 * Renders a queued email; relative links are made absolute on `baseUrl`. Throws on an unknown
 * template (the worker marks the row failed).
 */
export function renderMail(
  template: string,
  data: Data,
  ctx: { to: Audience; baseUrl: string },
): RenderedMail {
  const make = template === RESET_TEMPLATE ? RESET : EVENT_TEMPLATES[template];
  if (!make) throw new Error(`no email template "${template}"`);
  const parts = make(data, ctx.to);
  const href = absolute(parts.action.href, ctx.baseUrl);
  const text = [...parts.paragraphs, `${parts.action.label}: ${href}`].join("\n\n") +
    `\n\n-- \nFolio · ${ctx.baseUrl}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
    parts.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
    `<p><a href="${escapeHtml(href)}">${escapeHtml(parts.action.label)}</a></p>` +
    `<p style="color:#555">Folio · ${escapeHtml(ctx.baseUrl)}</p></body></html>`;
  return { subject: parts.subject.replace(/[\r\n]+/g, " "), text, html };
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** A path on this node's origin, or an http(s) URL an event gave. */
function absolute(href: string, baseUrl: string): string {
  if (href.startsWith("/")) return `${baseUrl}${href}`;
  return /^https?:\/\//.test(href) ? href : baseUrl;
}
