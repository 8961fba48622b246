import type { Authenticator, HttpMethod } from './http-transport.js';

/** What `POST /access/ticket` returns. */
export interface Ticket {
  /** `PVE:user@realm:<8 hex>::<signature>`, sent back in the `PVEAuthCookie` cookie. */
  ticket: string;
  CSRFPreventionToken: string;
  username: string;
  cap?: Record<string, Record<string, number>>;
  clustername?: string;
}

/**
 * Proxmox accepts a ticket for 2 hours; renewing after one leaves room for clock skew and long calls
 * without logging in on every request.
 */
const TICKET_RENEW_AFTER_MS = 60 * 60 * 1000;

/** Ticket (cookie) authentication: logs in on first use, again when the ticket ages or is refused. */
export class TicketSession implements Authenticator {
  readonly #login: (signal?: AbortSignal) => Promise<Ticket>;
  readonly #now: () => number;
  #current: { ticket: Ticket; obtainedAt: number } | undefined;
  #pending: Promise<Ticket> | undefined;

  constructor(login: (signal?: AbortSignal) => Promise<Ticket>, now: () => number = Date.now) {
    this.#login = login;
    this.#now = now;
  }

  async headers(method: HttpMethod, signal?: AbortSignal): Promise<Record<string, string>> {
    const ticket = await this.#ticket(signal);
    return {
      cookie: `PVEAuthCookie=${ticket.ticket}`,
      // Tickets, unlike tokens, need the CSRF token on every request that may change something.
      ...(method === 'GET' ? {} : { csrfpreventiontoken: ticket.CSRFPreventionToken }),
    };
  }

  renew(): boolean {
    const hadTicket = this.#current !== undefined;
    this.#current = undefined;
    return hadTicket;
  }

  async #ticket(signal?: AbortSignal): Promise<Ticket> {
    if (this.#current !== undefined && this.#now() - this.#current.obtainedAt < TICKET_RENEW_AFTER_MS) {
      return this.#current.ticket;
    }
    // Concurrent requests share one login.
    this.#pending ??= this.#login(signal).finally(() => {
      this.#pending = undefined;
    });
    const ticket = await this.#pending;
    this.#current = { ticket, obtainedAt: this.#now() };
    return ticket;
  }
}
