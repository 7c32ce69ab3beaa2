// Azure OpenAI account with one embedding deployment, reachable only with Entra ID.
// customSubDomainName is required for Entra (token) auth; disableLocalAuth turns API keys off, so
// every caller (the Search service's embedding skill and vectorizer, a developer running the
// evaluation) needs the Cognitive Services OpenAI User role (rbac.bicep).
// Resource shapes: https://learn.microsoft.com/azure/templates/microsoft.cognitiveservices/accounts
// and https://learn.microsoft.com/azure/templates/microsoft.cognitiveservices/2025-06-01/accounts/deployments

@description('Account name; also its custom subdomain (<name>.openai.azure.com).')
param name string

@description('Azure region (must offer the embedding model with the chosen deployment SKU).')
param location string

@description('Tags applied to the account.')
param tags object

@description('Name of the embedding deployment (what callers put in the URL).')
param embeddingDeploymentName string

@description('Embedding model name.')
param embeddingModelName string

@description('Embedding model version.')
param embeddingModelVersion string

@description('Deployment SKU: Standard (regional) or GlobalStandard.')
@allowed([
  'Standard'
  'GlobalStandard'
])
param embeddingDeploymentSkuName string

@description('Deployment capacity in thousands of tokens per minute.')
@minValue(1)
param embeddingDeploymentCapacity int

@description('Chat model for context notes (contextualize=llm); empty: no chat deployment.')
param chatModelName string = ''

@description('Chat model version.')
param chatModelVersion string = ''

@description('Chat deployment capacity in thousands of tokens per minute (GlobalStandard).')
@minValue(1)
param chatDeploymentCapacity int = 50

resource account 'Microsoft.CognitiveServices/accounts@2025-06-01' = {
  name: name
  location: location
  tags: tags
  kind: 'OpenAI'
  sku: {
    name: 'S0'
  }
  properties: {
    customSubDomainName: name
    disableLocalAuth: true
    publicNetworkAccess: 'Enabled'
  }
}

resource embedding 'Microsoft.CognitiveServices/accounts/deployments@2025-06-01' = {
  parent: account
  name: embeddingDeploymentName
  sku: {
    name: embeddingDeploymentSkuName
    capacity: embeddingDeploymentCapacity
  }
  properties: {
    model: {
      format: 'OpenAI'
      name: embeddingModelName
      version: embeddingModelVersion
    }
    // Vectors of two model versions are not comparable: never upgrade under a live index.
    versionUpgradeOption: 'NoAutoUpgrade'
  }
}

// Optional, off by default: the function's Cognitive Services OpenAI User role on the account
// (rbac.bicep) already covers it. Deployments of one account are created one after the other.
resource chat 'Microsoft.CognitiveServices/accounts/deployments@2025-06-01' = if (!empty(chatModelName)) {
  parent: account
  name: empty(chatModelName) ? 'none' : chatModelName
  dependsOn: [
    embedding
  ]
  sku: {
    name: 'GlobalStandard'
    capacity: chatDeploymentCapacity
  }
  properties: {
    model: {
      format: 'OpenAI'
      name: chatModelName
      version: chatModelVersion
    }
    // A new model version writes other notes; cached notes are keyed by deployment name only.
    versionUpgradeOption: 'NoAutoUpgrade'
  }
}

output name string = account.name
output id string = account.id
output endpoint string = account.properties.endpoint
output embeddingDeploymentName string = embedding.name
output chatDeploymentName string = empty(chatModelName) ? '' : chat.name
