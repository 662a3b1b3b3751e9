using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Configuration;

namespace Custom.Controllers;

[ApiController]
[Route("api/orders")]
public sealed class OrdersController : ControllerBase
{
    private readonly IConfiguration _configuration;

    public OrdersController(IConfiguration configuration) => _configuration = configuration;

    [HttpGet("{id}")]
    public string Get(int id) => _configuration["Orders:Prefix"] + id;
}
