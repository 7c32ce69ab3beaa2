// Azure AI Services (Foundry) account that bills the Document Layout skill of the `layout` mode,
// reachable only with Entra ID. The skillset attaches it by identity
// (cognitiveServices: #Microsoft.Azure.Search.AIServicesByIdentity, subdomainUrl = the endpoint
// output below), so the Search service's identity needs Cognitive Services User on it
// (rbac.bicep) and no key exists anywhere. Without a billable resource the skill stops after
// 20 documents per indexer per day
// (https://learn.microsoft.com/azure/search/cognitive-search-skill-document-intelligence-layout).
// Resource shape: https://learn.microsoft.com/azure/templates/microsoft.cognitiveservices/accounts

@description('Account name; also its custom subdomain (<name>.cognitiveservices.azure.com).')
param name string

@description('Azure region: one the Document Layout skill documents (main.bicep checks it).')
param location string

@description('Tags applied to the account.')
param tags object

resource account 'Microsoft.CognitiveServices/accounts@2025-06-01' = {
  name: name
  location: location
  tags: tags
  kind: 'AIServices'
  sku: {
    name: 'S0'
  }
  properties: {
    customSubDomainName: name
    disableLocalAuth: true
    publicNetworkAccess: 'Enabled'
  }
}

output name string = account.name
output id string = account.id
output endpoint string = account.properties.endpoint
