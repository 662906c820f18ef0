// WebRTC is not available on the server; anything that reaches for it fails loudly instead of hanging.
const unavailable = (name) =>
  class {
    constructor() {
      throw new Error(`${name}: WebRTC is not available in this build (node-datachannel is stubbed).`);
    }
  };
export const PeerConnection = unavailable('PeerConnection');
export const RtcpReceivingSession = unavailable('RtcpReceivingSession');
export const Video = unavailable('Video');
export const Audio = unavailable('Audio');
export const DataChannel = unavailable('DataChannel');
export function cleanup() {}
export function initLogger() {}
export function preload() {}
export default { PeerConnection, RtcpReceivingSession, Video, Audio, DataChannel, cleanup, initLogger, preload };
