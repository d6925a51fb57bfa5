/**
 * The confirmation step before rotating an API key (issue 34), for both portals: what happens to
 * the old key, then the form that rotates it. A page of its own, so it works without JavaScript.
 */
import { Confirm } from "./confirm.tsx";
import { type PortalFrame, PortalShell, type SignedIn } from "./shell.tsx";

/** What the page says about the key in question. */
export interface KeyRotationProps {
  frame: PortalFrame;
  who: SignedIn;
  section: string;
  /** "publisher key" or "API key". */
  what: string;
  /** The key's hint (prefix and last four characters), or null when unknown. */
  hint: string | null;
  /** Where it is used, e.g. "on the management API". */
  usedBy: string;
  action: string;
  cancelHref: string;
}

/** GET /publisher/settings/key and /buyer/keys/rotate. */
export function KeyRotationPage(props: KeyRotationProps) {
  return (
    <PortalShell frame={props.frame} who={props.who} section={props.section} title="Rotate the key">
      <Confirm
        heading={`Rotate your ${props.what}?`}
        action={props.action}
        button="Rotate the key now"
        cancelHref={props.cancelHref}
        csrfToken={props.who.csrfToken}
      >
        <p>
          A new key is made and shown to you once. The current key
          {props.hint
            ? (
              <>
                {" "}(<code>{props.hint}</code>)
              </>
            )
            : null}{" "}
          <strong>stops working immediately</strong>: there is no grace period, so every script and
          agent that uses it {props.usedBy} is refused until you give it the new key.
        </p>
        <p>
          Sessions opened with the old key are signed out; this browser session stays signed in.
        </p>
      </Confirm>
    </PortalShell>
  );
}
