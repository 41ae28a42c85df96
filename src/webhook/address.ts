// Where `trk webhook listen` listens unless told otherwise, and where `trk webhook trigger` sends by default: kept
// apart from the listener's code so that the trigger loads none of it.

export const DEFAULT_LISTEN_HOST = '127.0.0.1';
export const DEFAULT_LISTEN_PATH = '/hook';
/** Port of `trk webhook listen` when none is given (startListener itself defaults to any free port). */
export const DEFAULT_LISTEN_PORT = 4242;
/** The listener's URL when started without flags. */
export const DEFAULT_LISTEN_URL = `http://${DEFAULT_LISTEN_HOST}:${DEFAULT_LISTEN_PORT}${DEFAULT_LISTEN_PATH}`;
