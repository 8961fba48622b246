import { builtinResources } from './builtin-resources.js';
import { resourceKey, type ResourceType } from './resource-type.js';

export interface ServedGroup {
  name: string;
  versions: string[];
}

/** The resources served right now: the built-in ones plus one per established CRD. */
export class ResourceRegistry {
  private readonly byKey = new Map<string, ResourceType>();

  constructor() {
    for (const type of builtinResources()) this.register(type);
  }

  register(type: ResourceType): void {
    this.byKey.set(resourceKey(type.group, type.plural), type);
  }

  unregister(group: string, plural: string): void {
    this.byKey.delete(resourceKey(group, plural));
  }

  get(key: string): ResourceType | undefined {
    return this.byKey.get(key);
  }

  /** The resource if `version` of it is served. */
  find(group: string, version: string, plural: string): ResourceType | undefined {
    const type = this.byKey.get(resourceKey(group, plural));
    return type?.versions.includes(version) ? type : undefined;
  }

  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  inGroupVersion(group: string, version: string): ResourceType[] {
    return this.all().filter((t) => t.group === group && t.versions.includes(version));
  }

  /** Named groups (not the core group) with their versions, preferred first, in registration order. */
  groups(): ServedGroup[] {
    const groups = new Map<string, string[]>();
    for (const type of this.byKey.values()) {
      if (type.group === '') continue;
      const versions = groups.get(type.group) ?? [];
      for (const v of type.versions) if (!versions.includes(v)) versions.push(v);
      groups.set(type.group, versions);
    }
    return [...groups].map(([name, versions]) => ({ name, versions }));
  }
}
