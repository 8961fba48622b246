import { AlreadyExistsError, formatIpPrefix, type IpPrefix } from '@noderings/domain';

/** Says nothing of who holds the space: another organisation's prefixes are not this one's business. */
export function publicSpaceHeldElsewhere(cidr: IpPrefix): AlreadyExistsError {
  const description =
    'overlaps public address space another organization has registered: a public prefix belongs to one organization at a time';
  return new AlreadyExistsError(`${formatIpPrefix(cidr)} ${description}.`, [{ field: 'cidr', description }]);
}

export function prefixOverlap(cidr: IpPrefix, other: IpPrefix, otherName: string): AlreadyExistsError {
  const description =
    formatIpPrefix(cidr) === formatIpPrefix(other)
      ? `is already ${otherName} of this organization`
      : `overlaps ${otherName} of this organization`;
  return new AlreadyExistsError(`${formatIpPrefix(cidr)} ${description}.`, [{ field: 'cidr', description }]);
}
