import { AlreadyExistsError, findCity, findDatacenter } from '@noderings/domain';

/** The organisation already has a region for the datacenter in the city (both from the catalogue). */
export function regionExists(cityId: string, datacenterId: string): AlreadyExistsError {
  const datacenter = findDatacenter(datacenterId)?.name ?? datacenterId;
  const city = findCity(cityId)?.name ?? cityId;
  return new AlreadyExistsError(`A region for ${datacenter} in ${city} already exists.`);
}
