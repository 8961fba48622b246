/** A city customers choose from; regions point at one, and the marketplace filters by country and city. */
export interface City {
  readonly id: string;
  readonly name: string;
  readonly country: string;
  readonly latitude: number;
  readonly longitude: number;
}

export interface Datacenter {
  readonly id: string;
  readonly name: string;
  /** The city the facility is in. */
  readonly cityId: string;
}

export const CITIES: readonly City[] = [
  { id: 'at-vie', name: 'Vienna', country: 'Austria', latitude: 48.21, longitude: 16.37 },
  { id: 'au-syd', name: 'Sydney', country: 'Australia', latitude: -33.87, longitude: 151.21 },
  { id: 'br-sao', name: 'São Paulo', country: 'Brazil', latitude: -23.55, longitude: -46.63 },
  { id: 'ca-tor', name: 'Toronto', country: 'Canada', latitude: 43.65, longitude: -79.38 },
  { id: 'ch-zrh', name: 'Zurich', country: 'Switzerland', latitude: 47.37, longitude: 8.54 },
  { id: 'cz-prg', name: 'Prague', country: 'Czechia', latitude: 50.08, longitude: 14.44 },
  { id: 'de-ber', name: 'Berlin', country: 'Germany', latitude: 52.52, longitude: 13.4 },
  { id: 'de-fra', name: 'Frankfurt', country: 'Germany', latitude: 50.11, longitude: 8.68 },
  { id: 'de-nue', name: 'Nuremberg', country: 'Germany', latitude: 49.45, longitude: 11.08 },
  { id: 'es-mad', name: 'Madrid', country: 'Spain', latitude: 40.42, longitude: -3.7 },
  { id: 'fi-hel', name: 'Helsinki', country: 'Finland', latitude: 60.17, longitude: 24.94 },
  { id: 'fr-par', name: 'Paris', country: 'France', latitude: 48.86, longitude: 2.35 },
  { id: 'gb-lon', name: 'London', country: 'United Kingdom', latitude: 51.51, longitude: -0.13 },
  { id: 'in-bom', name: 'Mumbai', country: 'India', latitude: 19.08, longitude: 72.88 },
  { id: 'it-mil', name: 'Milan', country: 'Italy', latitude: 45.46, longitude: 9.19 },
  { id: 'jp-tyo', name: 'Tokyo', country: 'Japan', latitude: 35.68, longitude: 139.69 },
  { id: 'nl-ams', name: 'Amsterdam', country: 'Netherlands', latitude: 52.37, longitude: 4.9 },
  { id: 'pl-waw', name: 'Warsaw', country: 'Poland', latitude: 52.23, longitude: 21.01 },
  { id: 'ro-buh', name: 'Bucharest', country: 'Romania', latitude: 44.43, longitude: 26.1 },
  { id: 'se-sto', name: 'Stockholm', country: 'Sweden', latitude: 59.33, longitude: 18.07 },
  { id: 'sg-sin', name: 'Singapore', country: 'Singapore', latitude: 1.35, longitude: 103.82 },
  { id: 'us-ash', name: 'Ashburn', country: 'United States', latitude: 39.04, longitude: -77.49 },
  { id: 'us-chi', name: 'Chicago', country: 'United States', latitude: 41.88, longitude: -87.63 },
  { id: 'us-dal', name: 'Dallas', country: 'United States', latitude: 32.78, longitude: -96.8 },
  { id: 'us-lax', name: 'Los Angeles', country: 'United States', latitude: 34.05, longitude: -118.24 },
  { id: 'us-mia', name: 'Miami', country: 'United States', latitude: 25.76, longitude: -80.19 },
  { id: 'us-nyc', name: 'New York', country: 'United States', latitude: 40.71, longitude: -74.01 },
  { id: 'us-sea', name: 'Seattle', country: 'United States', latitude: 47.61, longitude: -122.33 },
];

export const DATACENTERS: readonly Datacenter[] = [
  { id: 'equinix-am5', name: 'Equinix AM5', cityId: 'nl-ams' },
  { id: 'nikhef-ams', name: 'Nikhef', cityId: 'nl-ams' },
  { id: 'equinix-fr5', name: 'Equinix FR5', cityId: 'de-fra' },
  { id: 'interxion-fra1', name: 'Interxion FRA1', cityId: 'de-fra' },
  { id: 'telehouse-north', name: 'Telehouse North', cityId: 'gb-lon' },
  { id: 'equinix-ld8', name: 'Equinix LD8', cityId: 'gb-lon' },
  { id: 'equinix-pa3', name: 'Equinix PA3', cityId: 'fr-par' },
  { id: 'equinix-dc2', name: 'Equinix DC2', cityId: 'us-ash' },
  { id: 'coresite-ny1', name: 'CoreSite NY1', cityId: 'us-nyc' },
  { id: 'equinix-sg1', name: 'Equinix SG1', cityId: 'sg-sin' },
  { id: 'equinix-ty2', name: 'Equinix TY2', cityId: 'jp-tyo' },
  { id: 'equinix-sy1', name: 'Equinix SY1', cityId: 'au-syd' },
  { id: 'own-facility', name: 'Own facility', cityId: '' },
];

const CITY_BY_ID = new Map(CITIES.map((c) => [c.id, c]));
const DATACENTER_BY_ID = new Map(DATACENTERS.map((d) => [d.id, d]));

export function findCity(id: string): City | undefined {
  return CITY_BY_ID.get(id);
}

export function findDatacenter(id: string): Datacenter | undefined {
  return DATACENTER_BY_ID.get(id);
}

/** A datacenter fits a city when it is in that city, or is the provider's own facility (any city). */
export function datacenterFitsCity(datacenter: Datacenter, city: City): boolean {
  return datacenter.cityId === '' || datacenter.cityId === city.id;
}
