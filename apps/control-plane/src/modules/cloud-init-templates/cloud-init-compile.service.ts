import {
  compileCloudInit,
  describeCloudInitProblem,
  FailedPreconditionError,
  hostnameProblem,
  InvalidArgumentError,
  resolveVariable,
  sha512Crypt,
  sha512CryptSalt,
  templateWarnings,
  type CloudConfigWarning,
  type CloudInitDocuments,
  type CloudInitValues,
} from '@noderings/domain';

import type { EnvironmentVariableService } from '../environment-variables/index.js';
import type { SecretService } from '../secrets/index.js';
import type { SshKeyService } from '../ssh-keys/index.js';
import { templateProblems, type CloudInitTemplateService } from './cloud-init-template.service.js';

interface AddressAndGateway {
  readonly address: string;
  readonly gateway: string;
}

export interface VmNetwork {
  readonly ipv4?: AddressAndGateway | undefined;
  readonly ipv6?: AddressAndGateway | undefined;
  readonly nameservers: readonly string[];
  readonly macAddress?: string | undefined;
}

/** What an order knows about the VM whose cloud-init data is compiled. */
export interface VmCloudInitRequest {
  readonly hostname: string;
  /** Keys of `sshKeyOrganizationId` (the customer's organisation on a marketplace order). */
  readonly sshKeyIds?: readonly string[] | undefined;
  /** Defaults to the template's organisation. */
  readonly sshKeyOrganizationId?: string | undefined;
  /** Hashed here with SHA-512-crypt; only the hash is in the output. */
  readonly password?: string | undefined;
  /** A hash from `hashPassword`, instead of `password`: hashing is slow, and an order does it before its locks. */
  readonly passwordHash?: string | undefined;
  /**
   * The customer's own user data, instead of the template's: passed on as it is, never templated, so it
   * can reach none of the provider's secrets. Excludes SSH keys and a password, which only the
   * template's user data would place.
   */
  readonly userData?: string | undefined;
  readonly network: VmNetwork;
}

/** The documents of one VM's cloud-init Secret: values substituted, ready to ship. */
export type CompiledCloudInit = CloudInitDocuments;

/** Sample values for a preview; anything left out gets a documentation value. */
export interface RenderSample {
  readonly hostname?: string | undefined;
  readonly sshKeyIds?: readonly string[] | undefined;
  /** Renders `password_hash` as a placeholder, as if the order had a password. */
  readonly withPassword?: boolean | undefined;
  readonly ipv4?: AddressAndGateway | undefined;
  readonly ipv6?: AddressAndGateway | undefined;
  readonly nameservers?: readonly string[] | undefined;
  readonly macAddress?: string | undefined;
}

export interface RenderedPreview extends CompiledCloudInit {
  readonly warnings: readonly CloudConfigWarning[];
}

/**
 * 100,000 rounds take about 150 ms here: slow enough to make guessing a leaked hash expensive, fast enough
 * for an order. The rounds are in the hash, so raising them later leaves existing VMs valid.
 */
const PASSWORD_HASH_ROUNDS = 100_000;
const SALT_BYTES = 16;
const PREVIEW_PASSWORD_HASH = '[password hash]';
const EMPTY_CLOUD_CONFIG = '#cloud-config\n';
/** RFC 5737 and RFC 3849 documentation addresses, which no real network uses. */
const PREVIEW_DEFAULTS = {
  hostname: 'preview',
  ipv4: { address: '192.0.2.10/24', gateway: '192.0.2.1' },
  ipv6: { address: '2001:db8::10/64', gateway: '2001:db8::1' },
  nameservers: ['192.0.2.53', '2001:db8::53'],
  macAddress: 'BC:24:11:00:00:01',
} as const;

function previewPlaceholder(key: string): string {
  return `[secret ${key}]`;
}

/**
 * Compiles cloud-init templates with an organisation's variables and secrets: once per order (the
 * output is a value; rotating a secret later changes no VM that exists), or as a preview for the
 * provider's UI, where secrets stay placeholders and are never opened.
 */
export class CloudInitCompileService {
  constructor(
    private readonly deps: {
      readonly templates: Pick<CloudInitTemplateService, 'get' | 'getOwn'>;
      readonly secrets: Pick<SecretService, 'openAll' | 'keys'>;
      readonly variables: Pick<EnvironmentVariableService, 'values'>;
      readonly sshKeys: Pick<SshKeyService, 'get'>;
      readonly randomBytes: (size: number) => Uint8Array;
    },
  ) {}

  /** The cloud-init data of one VM, compiled from one of the organisation's own templates. */
  async compileForVm(
    organizationId: string,
    templateId: string,
    request: VmCloudInitRequest,
  ): Promise<CompiledCloudInit> {
    return (await this.prepareForVm(organizationId, templateId, request))(request.network);
  }

  /**
   * Reads what a VM's cloud-init is made of (template, variables, secrets, keys) and returns the
   * compilation still waiting for the VM's network, which runs without I/O: an order prepares before
   * its claim and compiles inside the claim's transaction, once the addresses and MAC are known.
   */
  async prepareForVm(
    organizationId: string,
    templateId: string,
    request: Omit<VmCloudInitRequest, 'network'>,
  ): Promise<(network: VmNetwork) => CompiledCloudInit> {
    refuseInvalidRequest(request);
    const template = await this.deps.templates.getOwn(organizationId, templateId);
    const [env, secrets, sshAuthorizedKeys] = await Promise.all([
      this.deps.variables.values(organizationId),
      this.deps.secrets.openAll(organizationId),
      this.#publicKeys(request.sshKeyOrganizationId ?? organizationId, request.sshKeyIds ?? []),
    ]);
    const passwordHash =
      request.passwordHash ??
      (request.password === undefined ? undefined : this.hashPassword(request.password));
    return (network) => {
      const values: CloudInitValues = {
        hostname: request.hostname,
        sshAuthorizedKeys,
        passwordHash,
        ...network,
        env,
        secrets,
      };
      if (request.userData === undefined) return compileOrRefuse(template, values);
      // The customer's user data replaces the template's; vendor data and network data are still the provider's.
      const compiled = compileOrRefuse({ ...template, userData: EMPTY_CLOUD_CONFIG }, values);
      return { ...compiled, userData: request.userData };
    };
  }

  /** A template (a seed too) compiled with sample values and its secrets as `[secret KEY]`. */
  async render(organizationId: string, templateId: string, sample: RenderSample): Promise<RenderedPreview> {
    const template = await this.deps.templates.get(organizationId, templateId);
    const [env, secretKeys, sshAuthorizedKeys] = await Promise.all([
      this.deps.variables.values(organizationId),
      this.deps.secrets.keys(organizationId),
      this.#publicKeys(organizationId, sample.sshKeyIds ?? []),
    ]);
    const values: CloudInitValues = {
      hostname: sample.hostname ?? PREVIEW_DEFAULTS.hostname,
      sshAuthorizedKeys,
      passwordHash: sample.withPassword === true ? PREVIEW_PASSWORD_HASH : undefined,
      ipv4: sample.ipv4 ?? PREVIEW_DEFAULTS.ipv4,
      ipv6: sample.ipv6 ?? PREVIEW_DEFAULTS.ipv6,
      nameservers: sample.nameservers ?? PREVIEW_DEFAULTS.nameservers,
      macAddress: sample.macAddress ?? PREVIEW_DEFAULTS.macAddress,
      env,
      secrets: new Map(secretKeys.map((key) => [key, previewPlaceholder(key)])),
    };
    const compiled = compileOrRefuse(template, values);
    return {
      ...compiled,
      warnings: templateWarnings(template.userData),
    };
  }

  /**
   * Why each template would not compile for a VM with an IPv4 address and, when `withIpv6`, an IPv6
   * one: preflight's question, asked with preview values so that no secret is opened. An empty list for
   * a template that would compile.
   */
  async compileProblems(
    organizationId: string,
    checks: readonly { readonly templateId: string; readonly withIpv6: boolean }[],
  ): Promise<string[][]> {
    const [env, secretKeys] = await Promise.all([
      this.deps.variables.values(organizationId),
      this.deps.secrets.keys(organizationId),
    ]);
    const secrets = new Map(secretKeys.map((key) => [key, previewPlaceholder(key)]));
    const templates = new Map<string, Promise<CloudInitDocuments>>();
    return Promise.all(
      checks.map(async ({ templateId, withIpv6 }) => {
        let template = templates.get(templateId);
        if (template === undefined) {
          template = this.deps.templates.getOwn(organizationId, templateId);
          templates.set(templateId, template);
        }
        const values: CloudInitValues = {
          hostname: PREVIEW_DEFAULTS.hostname,
          sshAuthorizedKeys: [],
          passwordHash: undefined,
          ipv4: PREVIEW_DEFAULTS.ipv4,
          ipv6: withIpv6 ? PREVIEW_DEFAULTS.ipv6 : undefined,
          nameservers: PREVIEW_DEFAULTS.nameservers,
          macAddress: PREVIEW_DEFAULTS.macAddress,
          env,
          secrets,
        };
        const result = compileCloudInit(await template, (path) => resolveVariable(path, values));
        return result.ok ? [] : result.problems.map((p) => `${p.document} ${describeCloudInitProblem(p)}`);
      }),
    );
  }

  async #publicKeys(organizationId: string, ids: readonly string[]): Promise<string[]> {
    const keys = await Promise.all([...new Set(ids)].map((id) => this.deps.sshKeys.get(organizationId, id)));
    return keys.map((key) => key.publicKey);
  }

  /** The SHA-512-crypt hash cloud-init sets, with a fresh salt. */
  hashPassword(password: string): string {
    return sha512Crypt(password, sha512CryptSalt(this.deps.randomBytes(SALT_BYTES)), PASSWORD_HASH_ROUNDS);
  }
}

function refuseInvalidRequest(request: Omit<VmCloudInitRequest, 'network'>): void {
  const problem = hostnameProblem(request.hostname);
  if (problem !== undefined) throw InvalidArgumentError.field('hostname', problem);
  const placesAccess =
    (request.sshKeyIds?.length ?? 0) > 0 ||
    request.password !== undefined ||
    request.passwordHash !== undefined;
  if (request.userData !== undefined && placesAccess)
    throw InvalidArgumentError.field(
      'userData',
      'cannot come with SSH keys or a password: only the template’s user data would place them',
    );
}

/**
 * Compiles the template's documents, or refuses with every problem and its position. A template that
 * checked out when saved can still fail here: a secret it names was deleted, the VM has no IPv6 address.
 */
function compileOrRefuse(template: CloudInitDocuments, values: CloudInitValues): CompiledCloudInit {
  const result = compileCloudInit(template, (path) => resolveVariable(path, values));
  if (result.ok) return result.output;
  const { message, violations } = templateProblems(
    'The cloud-init template does not compile',
    result.problems,
  );
  throw new FailedPreconditionError(message, violations);
}
