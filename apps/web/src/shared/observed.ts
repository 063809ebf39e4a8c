/**
 * Whether a machine has observed nothing: no gateway bound, or never reported a reading, and
 * nothing counted. Its figures then read — (NO_DATA) in a neutral colour, never a 0 (red against
 * its target) — on its card and on its real-time page alike. A machine unbound after reporting
 * keeps its figures: what it counted was observed.
 */
export const observedNothing = ({
  noGateway = false,
  neverReported = false,
  counted,
}: {
  noGateway?: boolean;
  neverReported?: boolean;
  counted: number;
}): boolean => (noGateway || neverReported) && counted === 0;
