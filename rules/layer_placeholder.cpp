// placeholder until the layer has sources
namespace eqsat {}
