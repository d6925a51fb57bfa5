/**
 * The x402 v2 protocol through the `@x402/*` packages (docs/decisions/x402.md): the resource
 * server that builds the exact scheme's requirements and talks to the facilitator, and the
 * headers' codecs. Loaded only when x402 is configured (mod.ts imports it dynamically), so the
 * serving start graph carries none of it.
 *
 * @module
 */
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type {
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  VerifyResponse,
} from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { createPublicClient, type Hex, http, parseAbi } from "viem";
import type { X402Config } from "../../platform/config.ts";

export type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse };

/** How long a payer's authorisation may take to settle (the requirements' maxTimeoutSeconds). */
const MAX_TIMEOUT_SECONDS = 300;

/** One configured x402 resource server. */
export interface X402Protocol {
  /** The exact scheme's requirements for `micros` (the token's base units are micro-dollars). */
  requirements(micros: number): Promise<PaymentRequirements[]>;
  /** The `PAYMENT-REQUIRED` header for the resource at `url`, with an error when refusing. */
  paymentRequired(accepts: PaymentRequirements[], url: string, error?: string): Promise<string>;
  /** The `PAYMENT-SIGNATURE` header's payload; throws on a malformed one. */
  decode(header: string): PaymentPayload;
  /** The advertised requirement the payload accepted, or undefined (underpaid, other terms). */
  match(accepts: PaymentRequirements[], payload: PaymentPayload): PaymentRequirements | undefined;
  verify(payload: PaymentPayload, requirement: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleResponse>;
  /** The `PAYMENT-RESPONSE` header of a settlement. */
  paymentResponse(settled: SettleResponse): string;
  /**
   * Whether the token spent the authorisation (EIP-3009 `authorizationState`), and the
   * transaction that did (its `AuthorizationUsed` log); null without FOLIO_X402_RPC_URL.
   */
  onChain(from: string, nonce: string): Promise<{ used: boolean; tx: string | null } | null>;
}

/** EIP-3009's view of an authorisation. */
const EIP3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/** Builds the resource server for `config`; the facilitator is asked what it supports once. */
export function x402Protocol(config: X402Config): X402Protocol {
  const facilitator = new HTTPFacilitatorClient({ url: config.facilitatorUrl, timeoutMs: 60_000 });
  const server = new x402ResourceServer(facilitator).register(config.network, new ExactEvmScheme());
  let ready: Promise<void> | null = null;
  // A facilitator down at the first ask is asked again on the next request, not given up on.
  const initialized = () =>
    ready ??= server.initialize().catch((err) => {
      ready = null;
      throw err;
    });
  return {
    async requirements(micros) {
      await initialized();
      return await server.buildPaymentRequirements({
        scheme: "exact",
        network: config.network,
        payTo: config.payTo,
        price: {
          amount: String(micros),
          asset: config.asset,
          extra: { name: config.assetName, version: config.assetVersion },
        },
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      });
    },
    async paymentRequired(accepts, url, error) {
      const required = await server.createPaymentRequiredResponse(
        accepts,
        { url, mimeType: "text/html" },
        error,
      );
      return encodePaymentRequiredHeader(required);
    },
    decode: (header) => decodePaymentSignatureHeader(header),
    match: (accepts, payload) => server.findMatchingRequirements(accepts, payload),
    async verify(payload, requirement) {
      await initialized();
      return await server.verifyPayment(payload, requirement);
    },
    async settle(payload, requirement) {
      await initialized();
      return await server.settlePayment(payload, requirement);
    },
    paymentResponse: (settled) => encodePaymentResponseHeader(settled),
    async onChain(from, nonce) {
      if (!config.rpcUrl) return null;
      const chain = createPublicClient({ transport: http(config.rpcUrl) });
      const token = config.asset as Hex;
      const args = [from as Hex, nonce as Hex] as const;
      const used = await chain.readContract({
        address: token,
        abi: EIP3009,
        functionName: "authorizationState",
        args,
      });
      if (!used) return { used, tx: null };
      const logs = await chain.getContractEvents({
        address: token,
        abi: EIP3009,
        eventName: "AuthorizationUsed",
        args: { authorizer: args[0], nonce: args[1] },
        fromBlock: 0n,
      });
      return { used, tx: logs[0]?.transactionHash ?? null };
    },
  };
}
