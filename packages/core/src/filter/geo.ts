import type { GeoBoundingBox, GeoLineString, GeoPolygon, GeoRadius } from '../protocol/filter.js';

/**
 * Qdrant's geo conditions (lib/segment/src/types.rs, `check_point`): coordinates are `lon` / `lat`
 * degrees. A bounding box excludes its edges and crosses the antimeridian when `top_left.lon` is
 * east of `bottom_right.lon`; a radius keeps points whose haversine distance (mean Earth radius
 * 6,371,008.8 m, as the `geo` crate) is strictly below `radius` metres; a polygon is planar in
 * (lon, lat) and keeps points strictly inside its exterior and outside (and off the edges of) every
 * interior.
 */

/** The mean Earth radius the `geo` crate's haversine uses, in metres. */
export const EARTH_RADIUS_METERS = 6371008.8;

/** `{ lon, lat }` of a payload value that is a geo point (an object with numeric lon and lat), else undefined. */
export function geoPointOf(value: unknown): { lon: number; lat: number } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { lon, lat } = value as Record<string, unknown>;
  return typeof lon === 'number' && typeof lat === 'number' ? { lon, lat } : undefined;
}

export function inBoundingBox(box: GeoBoundingBox, lon: number, lat: number): boolean {
  const west = box.top_left.lon;
  const east = box.bottom_right.lon;
  const lonOk = west > east ? lon > west || lon < east : west < lon && lon < east;
  return lonOk && box.bottom_right.lat < lat && lat < box.top_left.lat;
}

/** Degrees to radians as Rust's `f64::to_radians`: times the constant π/180. */
export const toRadians = (degrees: number) => degrees * (Math.PI / 180);

/** Haversine distance in metres between two (lon, lat) points. */
export function haversineMeters(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const theta1 = toRadians(lat1);
  const theta2 = toRadians(lat2);
  const deltaTheta = toRadians(lat2 - lat1);
  const deltaLambda = toRadians(lon2 - lon1);
  const sinTheta = Math.sin(deltaTheta / 2);
  const sinLambda = Math.sin(deltaLambda / 2);
  const a = sinTheta * sinTheta + Math.cos(theta1) * Math.cos(theta2) * (sinLambda * sinLambda);
  return EARTH_RADIUS_METERS * (2 * Math.asin(Math.sqrt(a)));
}

export function inRadius(radius: GeoRadius, lon: number, lat: number): boolean {
  return haversineMeters(radius.center.lon, radius.center.lat, lon, lat) < radius.radius;
}

/** Where a point lies against a closed ring: 1 inside, 0 on an edge, -1 outside (even-odd rule). */
export function ringSide(ring: GeoLineString, x: number, y: number): -1 | 0 | 1 {
  const points = ring.points;
  let inside = false;
  for (let i = 0; i + 1 < points.length; i++) {
    const ax = points[i]!.lon;
    const ay = points[i]!.lat;
    const bx = points[i + 1]!.lon;
    const by = points[i + 1]!.lat;
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (
      cross === 0 &&
      Math.min(ax, bx) <= x &&
      x <= Math.max(ax, bx) &&
      Math.min(ay, by) <= y &&
      y <= Math.max(ay, by)
    ) {
      return 0;
    }
    if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
  }
  return inside ? 1 : -1;
}

export function inPolygon(polygon: GeoPolygon, lon: number, lat: number): boolean {
  if (ringSide(polygon.exterior, lon, lat) !== 1) return false;
  return (polygon.interiors ?? []).every((ring) => ringSide(ring, lon, lat) === -1);
}
