/** The scripted mock model server: one local server, four wire protocols (see server.ts). */
export {
  startMockModelServer,
  type MockModelRequest,
  type MockModelServer,
  type MockModelServerOptions,
} from "./server";
export {
  assistantTurns,
  conversationTokens,
  estimateTokens,
  MOCK_MODEL,
  promptScript,
  scriptFromTurns,
  turnTokens,
  type MockConversation,
  type MockProtocol,
  type MockResponseFormat,
  type MockScript,
  type ScriptedToolCall,
  type ScriptedTurn,
} from "./script";
