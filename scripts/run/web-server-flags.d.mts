export const WEB_SERVER_NODE_FLAGS: string[];
